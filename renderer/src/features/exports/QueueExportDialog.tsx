import { type FormEvent, useId, useState } from 'react';
import { QueueExportInputSchema } from '../../../../contract/case.ts';
import { VettedError } from '../../../../contract/errors.ts';
import { api } from '../../api.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { downloadFile } from '../../ui/download.ts';
import { Field } from '../../ui/Field.tsx';
import { useQueueStore } from '../queue/queue-store.ts';

const reasonRule = QueueExportInputSchema.shape.revealReason.unwrap();

/**
 * Exports the queue as shown (section and search) as CSV, through main. Names and e-mails are masked
 * unless the reviewer reveals them for the export with a reason, which the audit log records.
 */
export function QueueExportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const id = useId();
  const [full, setFull] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');

  const close = () => {
    setFull(false);
    setReason('');
    setError(null);
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = full ? reasonRule.safeParse(reason) : null;
    if (checked && !checked.success) return setError(checked.error.issues[0]?.message ?? 'Say why.');
    const { section, search } = useQueueStore.getState();
    setBusy(true);
    setError(null);
    try {
      const file = await api.queue.export({
        section,
        search,
        ...(checked ? { revealReason: checked.data } : {}),
      });
      downloadFile(file);
      setDone(`Exported ${file.count} ${file.count === 1 ? 'row' : 'rows'}.`);
      close();
    } catch (failure) {
      setError(
        failure instanceof VettedError
          ? (failure.fields['/revealReason'] ?? failure.message)
          : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <span role="status" className="visually-hidden">
        {done}
      </span>
      <Dialog open={open} title="Export the queue view" onClose={close}>
        <form onSubmit={onSubmit} noValidate>
          <p>The rows of the section and search on screen, as CSV.</p>
          <fieldset>
            <legend>Names and e-mails</legend>
            <label htmlFor={`${id}-masked`}>
              <input
                id={`${id}-masked`}
                type="radio"
                name="names"
                checked={!full}
                onChange={() => setFull(false)}
                data-autofocus
              />{' '}
              Masked (J••• D•••)
            </label>
            <label htmlFor={`${id}-full`}>
              <input
                id={`${id}-full`}
                type="radio"
                name="names"
                checked={full}
                onChange={() => setFull(true)}
              />{' '}
              In full, with a reason
            </label>
          </fieldset>
          {full && (
            <Field
              label="Reason"
              hint="Vetted writes who exported personal data, when and why to its audit log."
              error={error ?? undefined}
              announce
            >
              {(control) => (
                <textarea {...control} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
              )}
            </Field>
          )}
          {!full && error && <p role="alert">{error}</p>}
          <div className="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Exporting…' : 'Export CSV'}
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
