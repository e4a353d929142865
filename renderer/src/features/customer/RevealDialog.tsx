import { type FormEvent, useId, useState } from 'react';
import { type PersonalData, RevealInputSchema } from '../../../../contract/customers.ts';
import { VettedError } from '../../../../contract/errors.ts';
import { api } from '../../api.ts';
import { Dialog } from '../../ui/Dialog.tsx';

/** The same rule main applies, so the reviewer hears it before anything is sent. */
const reasonRule = RevealInputSchema.shape.reason;

interface RevealDialogProps {
  open: boolean;
  customerId: string;
  onClose(): void;
  onRevealed(data: PersonalData): void;
}

/** Asks why the reviewer needs the personal data; main records the reason in the audit log. */
export function RevealDialog({ open, customerId, onClose, onRevealed }: RevealDialogProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = reasonRule.safeParse(reason);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Say why you need to see this.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const data = await api.customers.reveal({ id: customerId, reason: checked.data });
      close();
      onRevealed(data);
    } catch (failure) {
      setError(
        failure instanceof VettedError ? (failure.fields['/reason'] ?? failure.message) : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title="Reveal personal data" onClose={close}>
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={id}>Reason</label>
          <textarea
            id={id}
            data-autofocus
            rows={3}
            value={reason}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(event) => setReason(event.target.value)}
          />
          <small id={`${id}-hint`} className="hint">
            Vetted writes who looked, when and why to its audit log.
          </small>
          {error && (
            <small id={`${id}-error`} className="field-error" role="alert">
              {error}
            </small>
          )}
        </div>
        <div className="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Revealing…' : 'Reveal'}
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
