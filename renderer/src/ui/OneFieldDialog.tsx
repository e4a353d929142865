import { type FormEvent, type ReactNode, useState } from 'react';
import { VettedError } from '#contract/errors.ts';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';
import { Field } from './Field.tsx';

interface OneFieldDialogProps {
  open: boolean;
  title: string;
  label: string;
  hint: string;
  /** The button, and what it says while the request runs. */
  action: { label: string; busyLabel: string };
  multiline?: boolean;
  /** A secret (a password): typed unseen, and never kept by the browser's autofill. */
  secret?: boolean;
  /** Lines of a multiline field. */
  rows?: number;
  /** Shown under the field as it is typed (e.g. a count of characters). */
  below?(value: string): ReactNode;
  /** Main's field key for this value (e.g. "/ref"): its message is shown beside the field. */
  fieldPointer: string;
  /** A message when the value cannot be sent, checked before anything is. */
  check(value: string): string | null;
  /** Sends the value; a throw keeps the dialog open with the reason beside the field. */
  submit(value: string): Promise<void>;
  onClose(): void;
}

/** A dialog asking for one value (an id, a reason…), with its check, its busy state and its error. */
export function OneFieldDialog(props: OneFieldDialogProps) {
  const {
    open,
    title,
    label,
    hint,
    action,
    multiline,
    secret,
    rows = 3,
    below,
    fieldPointer,
    check,
    submit,
    onClose,
  } = props;
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setValue('');
    setError(null);
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = check(value);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      await submit(value);
      close();
    } catch (failure) {
      setError(
        failure instanceof VettedError ? (failure.fields[fieldPointer] ?? failure.message) : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title={title} onClose={close}>
      <form onSubmit={onSubmit} noValidate>
        <Field label={label} hint={hint} error={error ?? undefined} announce>
          {(control) =>
            multiline ? (
              <textarea
                {...control}
                data-autofocus
                rows={rows}
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            ) : (
              <input
                {...control}
                data-autofocus
                type={secret ? 'password' : 'text'}
                value={value}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setValue(e.target.value)}
              />
            )
          }
        </Field>
        {below?.(value)}
        <div className="actions dialog-actions">
          <Button type="submit" weight="primary" disabled={busy}>
            {busy ? action.busyLabel : action.label}
          </Button>
          <Button onClick={close}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  );
}
