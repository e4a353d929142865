import { type FormEvent, useEffect, useId, useState } from 'react';
import { VettedError } from '#contract/errors.ts';
import { type TeamSettings, TeamSettingsSchema } from '#contract/roles.ts';
import { api } from '#renderer/api.ts';
import { LeadOnly } from '#renderer/shared/team/LeadOnly.tsx';
import { useTeamMe } from '#renderer/shared/team/team-me-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Field } from '#renderer/ui/Field.tsx';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The form's values: numbers as typed, checked against the contract on saving. */
interface Draft {
  claimIdleMinutes: string;
  retry: boolean;
  exportNames: boolean;
  expiryHours: string;
  lockIdleMaxMinutes: string;
}

const draftOf = (settings: TeamSettings): Draft => ({
  claimIdleMinutes: String(settings.claimIdleMinutes),
  retry: settings.fourEyes.retry,
  exportNames: settings.fourEyes.exportNames,
  expiryHours: String(settings.fourEyes.expiryHours),
  lockIdleMaxMinutes: String(settings.lockIdleMaxMinutes),
});

/** The team's own settings (the store's, shared by every desk): a lead changes them, a reviewer reads them. */
export function TeamSettingsForm() {
  const me = useTeamMe();
  const id = useId();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.team
      .settings()
      .then((settings) => setDraft(draftOf(settings)))
      .catch((failure: unknown) => setError(`The team’s settings could not be read: ${messageOf(failure)}`));
  }, []);
  const lead = me?.can.changeTeamSettings === true;
  const change = (patch: Partial<Draft>) =>
    setDraft((current) => (current ? { ...current, ...patch } : current));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    setSaved('');
    const checked = TeamSettingsSchema.safeParse({
      claimIdleMinutes: Number(draft.claimIdleMinutes),
      fourEyes: {
        retry: draft.retry,
        exportNames: draft.exportNames,
        expiryHours: Number(draft.expiryHours),
      },
      lockIdleMaxMinutes: Number(draft.lockIdleMaxMinutes),
    });
    if (!checked.success) {
      const field = checked.error.issues[0]?.path.at(-1);
      return setError(
        field === 'expiryHours'
          ? 'A request expires after a whole number of hours, from 1 to 720.'
          : field === 'lockIdleMaxMinutes'
            ? 'A desk locks after a whole number of minutes idle, from 1 to 240.'
            : 'A whole number of minutes, from 1 to 1440.',
      );
    }
    setBusy(true);
    setError(null);
    try {
      setDraft(draftOf(await api.team.updateSettings(checked.data)));
      setSaved('Team settings saved.');
    } catch (failure) {
      setError(failure instanceof VettedError ? failure.message : messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="team-settings">
      <h4 id={`${id}-title`}>Team settings</h4>
      {draft === null ? (
        error ? (
          <p role="alert">{error}</p>
        ) : (
          <p className="hint">Reading the team’s settings…</p>
        )
      ) : (
        <form aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
          <NumberSetting
            label="Claim idle time (minutes)"
            hint="A case’s claim ends after this long without an action by its holder; the audit log records it."
            range={[1, 1440]}
            readOnly={!lead}
            value={draft.claimIdleMinutes}
            onChange={(claimIdleMinutes) => change({ claimIdleMinutes })}
          />
          <NumberSetting
            label="Desks lock after at most (minutes idle)"
            hint="No desk of the team stays open longer without input; a reviewer may choose less."
            range={[1, 240]}
            readOnly={!lead}
            value={draft.lockIdleMaxMinutes}
            onChange={(lockIdleMaxMinutes) => change({ lockIdleMaxMinutes })}
          />
          <fieldset className="four-eyes-settings">
            <legend>Four eyes: a lead other than the maker approves before it leaves</legend>
            <CheckSetting
              label="The one-time retry (it carries the full SSN)"
              checked={draft.retry}
              readOnly={!lead}
              onChange={(retry) => change({ retry })}
            />
            <CheckSetting
              label="The export with names"
              checked={draft.exportNames}
              readOnly={!lead}
              onChange={(exportNames) => change({ exportNames })}
            />
            <NumberSetting
              label="A request expires after (hours)"
              hint="Its sealed details are deleted from the store then."
              range={[1, 720]}
              readOnly={!lead}
              value={draft.expiryHours}
              onChange={(expiryHours) => change({ expiryHours })}
            />
          </fieldset>
          {error && <p role="alert">{error}</p>}
          {lead ? (
            <div className="actions">
              <Button type="submit" disabled={busy}>
                {busy ? 'Saving…' : 'Save team settings'}
              </Button>
            </div>
          ) : (
            <LeadOnly action="changeTeamSettings" />
          )}
          <p role="status">{saved}</p>
        </form>
      )}
    </section>
  );
}

/** A whole number the team sets, as typed (checked against the contract when saved). */
function NumberSetting(props: {
  label: string;
  hint: string;
  range: [number, number];
  readOnly: boolean;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(control) => (
        <input
          {...control}
          type="number"
          min={props.range[0]}
          max={props.range[1]}
          readOnly={props.readOnly}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

function CheckSetting({
  label,
  checked,
  readOnly,
  onChange,
}: {
  label: string;
  checked: boolean;
  readOnly: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={checked}
        disabled={readOnly}
        onChange={(event) => onChange(event.target.checked)}
      />{' '}
      {label}
    </label>
  );
}
