import { type FormEvent, useEffect, useId, useState } from 'react';
import { MIN_LOCK_SECRET_LENGTH } from '#contract/lock.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Field } from '#renderer/ui/Field.tsx';
import { TextField } from '#renderer/ui/TextField.tsx';
import { useLockStore } from './lock-store.ts';

/** Settings → Lock: after how long idle, on which key, and (where the vault has no passphrase) its secret. */
export function LockSettings() {
  const state = useLockStore((store) => store.state);
  const id = useId();
  const [minutes, setMinutes] = useState('');
  const [key, setKey] = useState('');
  const [saved, setSaved] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!state) return;
    setMinutes(String(state.ownIdleMinutes));
    setKey(state.key ?? '');
  }, [state]);
  if (!state) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    const idleMinutes = Number(minutes);
    const ok = await useLockStore.getState().configure({ idleMinutes, key: key.trim() || null });
    const { error } = useLockStore.getState();
    setProblem(ok ? null : error);
    if (ok) setSaved('Lock settings saved.');
  };
  const capped = state.teamMaximum !== null && state.ownIdleMinutes > state.teamMaximum;

  return (
    <section aria-labelledby={`${id}-title`} className="lock-settings">
      <h3 id={`${id}-title`}>Lock</h3>
      <p className="hint">
        Vetted locks after the time without input below, when the computer locks its screen or sleeps, and on
        the lock key. Locked, it shows nothing of a customer until the desk’s secret is entered.
      </p>
      <SecretForm />
      <form aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
        <Field
          label="Lock after (minutes idle)"
          hint={
            capped
              ? `Your team’s lead allows at most ${state.teamMaximum} minutes: the desk locks after ${state.idleMinutes}.`
              : 'From 1 to 240 minutes.'
          }
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={240}
              value={minutes}
              onChange={(event) => setMinutes(event.target.value)}
            />
          )}
        </Field>
        <TextField
          label="Lock key"
          name="lockKey"
          value={key}
          onChange={setKey}
          hint="With Ctrl, Alt or Meta, such as Ctrl+Shift+L; empty for none."
        />
        {problem && <p role="alert">{problem}</p>}
        <div className="actions">
          <Button type="submit">Set lock time and key</Button>
        </div>
        <p role="status">{saved}</p>
      </form>
    </section>
  );
}

/** Setting the secret the desk unlocks with: the first time, or a change with the one before. */
function SecretForm() {
  const state = useLockStore((store) => store.state);
  const busy = useLockStore((store) => store.busy);
  const [current, setCurrent] = useState('');
  const [secret, setSecret] = useState('');
  const [again, setAgain] = useState('');
  const [told, setTold] = useState<{ kind: 'alert' | 'status'; text: string } | null>(null);
  const id = useId();
  if (!state) return null;
  if (state.secret === 'vault-passphrase') {
    return <p className="hint">The desk unlocks with your vault passphrase.</p>;
  }
  const changing = state.secret === 'lock-secret';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ([...secret].length < MIN_LOCK_SECRET_LENGTH) {
      return setTold({
        kind: 'alert',
        text: `Choose a secret of at least ${MIN_LOCK_SECRET_LENGTH} characters.`,
      });
    }
    if (secret !== again) return setTold({ kind: 'alert', text: 'The two secrets are not the same.' });
    const ok = await useLockStore.getState().arm(secret, changing ? current : undefined);
    setCurrent('');
    setSecret('');
    setAgain('');
    setTold(
      ok
        ? { kind: 'status', text: changing ? 'The desk’s secret was changed.' : 'The lock is armed.' }
        : { kind: 'alert', text: useLockStore.getState().error ?? 'The secret was not set.' },
    );
  };

  return (
    <form aria-labelledby={`${id}-title`} onSubmit={submit} noValidate className="lock-secret">
      <h4 id={`${id}-title`}>{changing ? 'Change the desk’s secret' : 'Set the desk’s secret'}</h4>
      {!changing && (
        <p className="hint">
          The lock is not armed yet: without a secret, a locked desk could not be opened.
        </p>
      )}
      {changing && (
        <TextField
          label="Current secret"
          name="current"
          type="password"
          value={current}
          onChange={setCurrent}
        />
      )}
      <TextField
        label="New secret"
        name="secret"
        type="password"
        value={secret}
        onChange={setSecret}
        hint={`At least ${MIN_LOCK_SECRET_LENGTH} characters. Vetted keeps only a slow hash of it.`}
      />
      <TextField label="New secret again" name="again" type="password" value={again} onChange={setAgain} />
      {told && <p role={told.kind}>{told.text}</p>}
      <div className="actions">
        <Button type="submit" disabled={busy}>
          {changing ? 'Change secret' : 'Arm the lock'}
        </Button>
      </div>
    </form>
  );
}
