import { type FormEvent, useState } from 'react';
import { Field } from '#renderer/ui/Field.tsx';
import { HistoryChoice } from './HistoryOffer.tsx';
import { offerSize, useHistoryStore } from './history-store.ts';
import { useTeamStore } from './team-store.ts';

/** Solo mode: the join code and the database password the administrator gave, checked by main before kept. */
export function JoinTeamForm() {
  const { busy, fieldErrors, join } = useTeamStore();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // The password leaves the page's state once main has it, whatever it answered.
    const joined = await join(code, password);
    setPassword('');
    if (!joined) return;
    setCode('');
    const history = useHistoryStore.getState();
    // Offered only when there is something to bring: a desk that never worked alone just joins.
    if (history.wanted && history.offer && offerSize(history.offer) > 0) await history.bring();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Join a team">
      <p>
        This desk works alone. To work with your team on its shared store, paste the join code your
        administrator gave you and type your database password.
      </p>
      <Field
        label="Join code"
        error={fieldErrors.code}
        hint="It starts with vetted-join-1. and holds the team’s key: keep it to yourself."
        announce
      >
        {(control) => (
          <textarea
            {...control}
            name="joinCode"
            rows={4}
            value={code}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
      </Field>
      <Field label="Database password" error={fieldErrors.password} announce>
        {(control) => (
          <input
            {...control}
            name="teamPassword"
            type="password"
            value={password}
            autoComplete="off"
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <HistoryChoice />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Joining…' : 'Join team'}
        </button>
      </div>
    </form>
  );
}
