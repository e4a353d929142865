import type { Ref } from 'react';
import { Field } from './Field.tsx';
import { Select } from './Select.tsx';

interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  options: readonly { value: string; label: string }[];
  /** The label of the empty choice, selected while nothing is chosen. */
  placeholder: string;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
  selectRef?: Ref<HTMLSelectElement>;
}

/** A `Select` in a `Field`, with an empty first choice so that "not chosen yet" is visible. */
export function SelectField({
  label,
  name,
  value,
  onChange,
  options,
  placeholder,
  error,
  hint,
  required,
  selectRef,
}: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <Select
          {...control}
          selectRef={selectRef}
          name={name}
          value={value}
          required={required}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}
