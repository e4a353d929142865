import { type FormEvent, useState } from 'react';
import { MAX_NOTE_CHARS, NoteTextSchema, noteLength } from '../../../../contract/case.ts';
import { VettedError } from '../../../../contract/errors.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { useCaseStore } from './case-store.ts';

/** A plain-text note on the case, counted as it is typed; main checks the same rule. */
export function NoteDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const used = noteLength(text);

  const close = () => {
    setText('');
    setError(null);
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = NoteTextSchema.safeParse(text);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'This note cannot be saved.');
    setBusy(true);
    setError(null);
    try {
      await useCaseStore.getState().addNote(checked.data);
      close();
    } catch (failure) {
      setError(
        failure instanceof VettedError ? (failure.fields['/text'] ?? failure.message) : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title="Write a note" onClose={close}>
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Note"
          hint={`Plain text, up to ${MAX_NOTE_CHARS.toLocaleString('en-US')} characters. It is kept encrypted, and the audit log records that you wrote it.`}
          error={error ?? undefined}
          announce
        >
          {(control) => (
            <textarea
              {...control}
              data-autofocus
              rows={6}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </Field>
        <p className={used > MAX_NOTE_CHARS ? 'note-count note-count-over' : 'note-count'}>
          {used.toLocaleString('en-US')} of {MAX_NOTE_CHARS.toLocaleString('en-US')} characters
        </p>
        <div className="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save note'}
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
