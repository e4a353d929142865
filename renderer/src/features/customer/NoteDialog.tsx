import { MAX_NOTE_CHARS, NoteTextSchema, noteLength } from '#contract/case.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { OneFieldDialog } from '#renderer/ui/OneFieldDialog.tsx';

const LIMIT = MAX_NOTE_CHARS.toLocaleString('en-US');

/** A plain-text note on the case, counted as it is typed; main checks the same rule. */
export function NoteDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <OneFieldDialog
      open={open}
      title="Write a note"
      label="Note"
      hint={`Plain text, up to ${LIMIT} characters. It is kept encrypted, and the audit log records that you wrote it.`}
      action={{ label: 'Save note', busyLabel: 'Saving…' }}
      multiline
      rows={6}
      fieldPointer="/text"
      below={(text) => {
        const used = noteLength(text);
        return (
          <p className={used > MAX_NOTE_CHARS ? 'note-count note-count-over' : 'note-count'}>
            {used.toLocaleString('en-US')} of {LIMIT} characters
          </p>
        );
      }}
      check={(text) => {
        const checked = NoteTextSchema.safeParse(text);
        return checked.success ? null : (checked.error.issues[0]?.message ?? 'This note cannot be saved.');
      }}
      submit={(text) => useCaseStore.getState().addNote(NoteTextSchema.parse(text))}
      onClose={onClose}
    />
  );
}
