import type { SandboxProfile } from '#contract/settings.ts';
import { Field } from '#renderer/ui/Field.tsx';
import { Select } from '#renderer/ui/Select.tsx';

const PROFILES: readonly { value: SandboxProfile; label: string }[] = [
  { value: 'interface', label: 'Interface document (default)' },
  { value: 'real', label: 'Like today’s real service' },
];

/** Which behaviour the built-in sandbox follows; saving a change restarts it, keeping its customers. */
export function SandboxProfileField({
  value,
  error,
  onChange,
}: {
  value: SandboxProfile;
  error?: string | undefined;
  onChange(value: SandboxProfile): void;
}) {
  return (
    <Field
      label="Sandbox behaves like"
      error={error}
      hint="Saving a change restarts the built-in sandbox and reconnects; its customers are kept. “Like today’s real service” issues tokens at /token and has the kba, unverified and deactivated statuses."
    >
      {(control) => (
        <Select
          {...control}
          name="sandboxProfile"
          value={value}
          onChange={(event) => onChange(event.target.value as SandboxProfile)}
        >
          {PROFILES.map((profile) => (
            <option key={profile.value} value={profile.value}>
              {profile.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}
