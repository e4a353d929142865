import { type FormEvent, useEffect, useId, useState } from 'react';
import { VettedError } from '../../../../contract/errors.ts';
import { TeamSettingsSchema } from '../../../../contract/roles.ts';
import { api } from '../../api.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { LeadOnly } from '../claims/LeadOnly.tsx';
import { useTeamMe } from '../claims/team-me-store.ts';

const minutesRule = TeamSettingsSchema.shape.claimIdleMinutes;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The team's own settings (the store's, shared by every desk): a lead changes them, a reviewer reads them. */
export function TeamSettingsForm() {
  const me = useTeamMe();
  const id = useId();
  const [minutes, setMinutes] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.team
      .settings()
      .then((settings) => setMinutes(String(settings.claimIdleMinutes)))
      .catch((failure: unknown) => setError(`The team’s settings could not be read: ${messageOf(failure)}`));
  }, []);
  const lead = me?.can.changeTeamSettings === true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    const checked = minutesRule.safeParse(Number(minutes));
    if (!checked.success) return setError('A whole number of minutes, from 1 to 1440.');
    setBusy(true);
    setError(null);
    try {
      const settings = await api.team.updateSettings({ claimIdleMinutes: checked.data });
      setMinutes(String(settings.claimIdleMinutes));
      setSaved('Team settings saved.');
    } catch (failure) {
      setError(
        failure instanceof VettedError
          ? (failure.fields['/claimIdleMinutes'] ?? failure.message)
          : messageOf(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="team-settings">
      <h4 id={`${id}-title`}>Team settings</h4>
      {minutes === null ? (
        error ? (
          <p role="alert">{error}</p>
        ) : (
          <p className="hint">Reading the team’s settings…</p>
        )
      ) : (
        <form aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
          <Field
            label="Claim idle time (minutes)"
            hint="A case’s claim ends after this long without an action by its holder; the audit log records it."
            error={error ?? undefined}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                min={1}
                max={1440}
                readOnly={!lead}
                value={minutes}
                onChange={(event) => setMinutes(event.target.value)}
              />
            )}
          </Field>
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
