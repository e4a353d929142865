import { type FormEvent, useId, useState } from 'react';
import type { CustomerDetail } from '../../../../contract/customers.ts';
import { VettedError } from '../../../../contract/errors.ts';
import { api } from '../../api.ts';
import { Dialog } from '../../ui/Dialog.tsx';

interface AddCustomerDialogProps {
  open: boolean;
  onClose(): void;
  onAdded(customer: CustomerDetail): void;
}

/** Brings a customer that exists on the service into Vetted, by its id or its URL. */
export function AddCustomerDialog({ open, onClose, onAdded }: AddCustomerDialogProps) {
  const id = useId();
  const [ref, setRef] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setRef('');
    setError(null);
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (ref.trim() === '') {
      setError('Paste the customer’s id or URL.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const customer = await api.customers.add({ ref: ref.trim() });
      close();
      onAdded(customer);
    } catch (failure) {
      setError(
        failure instanceof VettedError ? (failure.fields['/ref'] ?? failure.message) : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title="Add customer" onClose={close}>
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={id}>Customer ID or URL</label>
          <input
            id={id}
            data-autofocus
            value={ref}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(event) => setRef(event.target.value)}
          />
          <small id={`${id}-hint`} className="hint">
            The customer’s id, or its address on the service.
          </small>
          {error && (
            <small id={`${id}-error`} className="field-error" role="alert">
              {error}
            </small>
          )}
        </div>
        <div className="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Adding…' : 'Add'}
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
