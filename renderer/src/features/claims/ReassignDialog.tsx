import { UserRoundPen } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ClaimNoteSchema, ReviewerNameSchema } from '#contract/claims.ts';
import { VettedError } from '#contract/errors.ts';
import { useClaimsStore } from '#renderer/shared/team/claims-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Dialog } from '#renderer/ui/Dialog.tsx';
import { Field } from '#renderer/ui/Field.tsx';
import { SelectField } from '#renderer/ui/SelectField.tsx';

interface ReassignDialogProps {
  open: boolean;
  customerId: string;
  /** Who holds the case now: not offered as the one to give it to. */
  holder: string | null;
  onClose(): void;
  onDone(to: string): void;
}

interface Problems {
  to?: string | undefined;
  note?: string | undefined;
  other?: string | undefined;
}

const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

/** A lead gives the case to a reviewer of the team, with a note the new holder reads (audited). */
export function ReassignDialog({ open, customerId, holder, onClose, onDone }: ReassignDialogProps) {
  const reviewers = useClaimsStore((state) => state.reviewers);
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const options = reviewers
    .filter((reviewer) => reviewer.login !== holder)
    .map((reviewer) => ({
      value: reviewer.login,
      label: reviewer.me ? `${reviewer.login} (you)` : reviewer.login,
    }));

  const close = () => {
    setTo('');
    setNote('');
    setProblems({});
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked: Problems = {
      to: to === '' ? 'Choose who gets the case.' : firstIssue(ReviewerNameSchema.safeParse(to)),
      note: firstIssue(ClaimNoteSchema.safeParse(note)),
    };
    if (checked.to || checked.note) return setProblems(checked);
    setBusy(true);
    setProblems({});
    try {
      await useClaimsStore.getState().reassign(customerId, to, note.trim());
      close();
      onDone(to);
    } catch (error) {
      const fields = error instanceof VettedError ? error.fields : {};
      setProblems({
        to: fields['/to'],
        note: fields['/note'],
        other:
          fields['/to'] || fields['/note']
            ? undefined
            : error instanceof Error
              ? error.message
              : String(error),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title="Reassign the case" onClose={close}>
      <form onSubmit={submit} noValidate>
        <SelectField
          label="Reviewer"
          name="to"
          value={to}
          onChange={setTo}
          options={options}
          placeholder="Choose a reviewer"
          error={problems.to}
          required
        />
        <Field
          label="Note"
          hint="The new holder reads it; the audit log keeps it, sealed with the team key."
          error={problems.note}
        >
          {(control) => (
            <textarea {...control} rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
          )}
        </Field>
        {problems.other && <p role="alert">{problems.other}</p>}
        <div className="actions dialog-actions">
          <Button type="submit" weight="primary" icon={UserRoundPen} disabled={busy}>
            {busy ? 'Reassigning…' : 'Reassign'}
          </Button>
          <Button onClick={close}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  );
}
