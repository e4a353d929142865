import { type ReactNode, useId } from 'react';

/** What a field's control carries so that its label, hint and error belong to it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: string;
  /** How to fix what is wrong, next to the field; the control is marked invalid while there is one. */
  error?: string | undefined;
  hint?: string | undefined;
  /** Read the error out as soon as it appears (a dialog's single field, where focus stays put). */
  announce?: boolean;
  /** The control (and anything that goes beside it), given the attributes that tie it to this field. */
  children(control: FieldControlProps): ReactNode;
}

/** A labelled control with its hint and its error, tied together by aria-describedby. */
export function Field({ label, error, hint, announce, children }: FieldProps) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error" role={announce ? 'alert' : undefined}>
          {error}
        </small>
      )}
    </div>
  );
}
