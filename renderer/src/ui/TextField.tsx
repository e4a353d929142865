import type { Ref } from 'react';
import { Field } from './Field.tsx';

interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  hint?: string | undefined;
  placeholder?: string;
  type?: 'text' | 'password';
  inputMode?: 'numeric' | 'email' | 'decimal';
  required?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/** A one-line text input in a `Field`: nothing the browser would autofill or spell-check. */
export function TextField({
  label,
  name,
  value,
  onChange,
  error,
  hint,
  placeholder,
  type = 'text',
  inputMode,
  required,
  inputRef,
}: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          name={name}
          type={type}
          value={value}
          placeholder={placeholder}
          inputMode={inputMode}
          required={required}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
