import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { MIN_PASSPHRASE_LENGTH } from '#contract/vault.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { TextField } from '#renderer/ui/TextField.tsx';
import { useVaultStore } from './vault-store.ts';

/** Shows the app only once main says the vault is open; until then, the unlock (or first-run) screen. */
export function VaultGate({ children }: { children: ReactNode }) {
  const { status, error, load } = useVaultStore();
  useEffect(() => {
    void load();
  }, [load]);
  if (status?.state === 'open') return children;
  if (!status) return error ? <p role="alert">{error}</p> : null;
  return <UnlockScreen />;
}

function UnlockScreen() {
  const { status, busy, error, fieldErrors, unlock, create } = useVaultStore();
  const [passphrase, setPassphrase] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const first = useRef<HTMLInputElement>(null);
  const isNew = status?.state === 'new';

  useEffect(() => first.current?.focus(), []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const opened = isNew ? await create(passphrase, confirmation) : await unlock(passphrase);
    // Not kept on screen longer than needed; on a refusal the field is emptied for another try.
    setPassphrase('');
    setConfirmation('');
    if (!opened) first.current?.focus();
  };

  return (
    <main className="shell-main">
      <form className="unlock" aria-labelledby="unlock-title" onSubmit={onSubmit} noValidate>
        <h1 id="unlock-title">{isNew ? 'Choose a passphrase' : 'Unlock Vetted'}</h1>
        <p>{status?.reason}</p>
        <TextField
          label="Passphrase"
          name="passphrase"
          type="password"
          value={passphrase}
          onChange={setPassphrase}
          error={fieldErrors.passphrase}
          hint={isNew ? `At least ${MIN_PASSPHRASE_LENGTH} characters.` : undefined}
          required
          inputRef={first}
        />
        {/* First run only: the same passphrase twice, so that a typo does not lock the reviewer out. */}
        {isNew && (
          <TextField
            required
            type="password"
            label="Confirm passphrase"
            name="confirmation"
            error={fieldErrors.confirmation}
            onChange={setConfirmation}
            value={confirmation}
          />
        )}
        {error && <p role="alert">{error}</p>}
        <Button type="submit" weight="primary" disabled={busy}>
          {busy ? 'Opening…' : isNew ? 'Create vault' : 'Unlock'}
        </Button>
      </form>
    </main>
  );
}
