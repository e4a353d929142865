import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type LockReason, type LockState, waitInWords } from '#contract/lock.ts';
import { api } from '#renderer/api.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { TextField } from '#renderer/ui/TextField.tsx';
import { followActivity } from './activity.ts';
import { useLockStore } from './lock-store.ts';

const WHY: Record<LockReason, string> = {
  idle: 'It locked after the time without input set in Settings.',
  'os-lock': 'It locked when the computer’s screen did.',
  suspend: 'It locked when the computer went to sleep.',
  key: 'It was locked with the lock key.',
  start: 'It starts locked: enter the desk’s secret to open it.',
};

/**
 * The app only while the desk is open. Locked, the app is gone from the page (its stores cleared, the case
 * closed) and the lock screen names the desk and the reviewer, nothing else. Open, the reviewer's input is
 * reported and the page locks on the idle time or the lock key.
 */
export function LockGate({
  children,
  keepCleared,
}: {
  children: ReactNode;
  /** Holds every store with a customer's data at its start while `stillLocked` (the shell knows them all). */
  keepCleared(stillLocked: () => boolean): () => void;
}) {
  const { state, error, load } = useLockStore();
  useWatch(useLockStore.getState().watch);
  useEffect(() => {
    void load();
  }, [load]);
  const locked = state?.locked === true;
  useEffect(() => {
    if (locked) return keepCleared(() => useLockStore.getState().state?.locked === true);
    return followActivity({
      target: window,
      lock: () => useLockStore.getState().state,
      report: () => void api.lock.activity().catch(() => undefined),
      lockNow: (reason) => void useLockStore.getState().lockNow(reason),
    });
  }, [locked, keepCleared]);
  // Main refuses the data channels while locked whatever the page shows; until it answers, nothing shows.
  if (!state) return error ? <p role="alert">{error}</p> : null;
  return locked ? <LockScreen state={state} /> : children;
}

/** Counts main's wait down once a second, from when the state came; null once the desk no longer waits. */
function useWaitLeft(state: LockState): number | null {
  const [clock, setClock] = useState(() => ({ since: Date.now(), now: Date.now() }));
  useEffect(() => {
    const since = Date.now();
    setClock({ since, now: since });
    if (state.waitMs === 0) return;
    const tick = setInterval(() => setClock({ since, now: Date.now() }), 1000);
    return () => clearInterval(tick);
  }, [state]);
  const left = state.waitMs - (clock.now - clock.since);
  return left > 0 ? left : null;
}

function LockScreen({ state }: { state: LockState }) {
  const { busy, error, unlock } = useLockStore();
  const [secret, setSecret] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const waitLeft = useWaitLeft(state);
  useEffect(() => field.current?.focus(), []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const opened = await unlock(secret);
    // Not kept on screen longer than needed.
    setSecret('');
    if (!opened) field.current?.focus();
  };
  const passphrase = state.secret === 'vault-passphrase';

  return (
    <main className="shell-main">
      <form className="unlock lock-screen" aria-labelledby="lock-title" onSubmit={onSubmit} noValidate>
        <h1 id="lock-title">Vetted is locked</h1>
        <dl className="lock-who">
          <dt>Desk</dt>
          <dd>{state.desk}</dd>
          <dt>Reviewer</dt>
          <dd>{state.reviewer}</dd>
        </dl>
        <p>{state.reason ? WHY[state.reason] : null}</p>
        <TextField
          label={passphrase ? 'Vault passphrase' : 'Desk secret'}
          name="secret"
          type="password"
          value={secret}
          onChange={setSecret}
          required
          inputRef={field}
        />
        {error && !waitLeft && <p role="alert">{error}</p>}
        {waitLeft && (
          <p role="alert">
            {state.failures} wrong attempts in a row: wait {waitInWords(waitLeft)} before trying again.
          </p>
        )}
        <Button type="submit" weight="primary" disabled={busy || waitLeft !== null}>
          {busy ? 'Unlocking…' : 'Unlock'}
        </Button>
      </form>
    </main>
  );
}
