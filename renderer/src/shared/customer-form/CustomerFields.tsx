import type { ReactNode } from 'react';
import {
  type CustomerRulesMode,
  customerFieldHint,
  isRequiredCustomerField,
  US_STATES,
} from '#contract/customer-rules.ts';
import type { CustomerForm } from '#contract/drafts.ts';
import { SelectField } from '#renderer/ui/SelectField.tsx';
import { TextField } from '#renderer/ui/TextField.tsx';
import type { FormField } from './form-rules.ts';
import type { CustomerFormControl } from './useCustomerForm.ts';

type TextInputField = Exclude<FormField, 'state' | 'tin'>;

interface TextFieldSpec {
  label: string;
  /** Only where a touch keyboard has every character the field takes (ZIP+4 and dates need '-'). */
  inputMode?: 'email';
  placeholder?: string;
}

const TEXT_FIELDS: Record<TextInputField, TextFieldSpec> = {
  firstName: { label: 'First name' },
  lastName: { label: 'Last name' },
  email: { label: 'Email', inputMode: 'email', placeholder: 'name@example.com' },
  address1: { label: 'Address line 1' },
  address2: { label: 'Address line 2' },
  city: { label: 'City' },
  postalCode: { label: 'Postal code', placeholder: '12345' },
  dateOfBirth: { label: 'Date of birth', placeholder: 'YYYY-MM-DD' },
  ipAddress: { label: 'IP address' },
};

const STATE_OPTIONS = US_STATES.map((state) => ({
  value: state.code,
  label: `${state.code} — ${state.name}`,
}));

interface CustomerFieldsProps {
  mode: CustomerRulesMode;
  control: CustomerFormControl;
  /** Queued, sending or created: shown as it was sent, not editable. */
  locked?: boolean;
  /** The retry form's own SSN field (the full number, masked) in place of the last four digits. */
  ssnField?: ReactNode;
  /** The reviewer changed a field: the whole new form (the draft autosaves it). */
  onFormChange?(form: CustomerForm): void;
}

/** The fields of a personal customer, grouped as a person reads them, each with its rule and its error. */
export function CustomerFields({
  mode,
  control,
  locked = false,
  ssnField,
  onFormChange,
}: CustomerFieldsProps) {
  const { form, shown } = control;
  // The edit is applied first, always: the callback only hears of it (the retry form passes none).
  const update = (field: FormField, value: string) => {
    const next = control.change(field, value);
    onFormChange?.(next);
  };
  const text = (field: TextInputField) => {
    const spec = TEXT_FIELDS[field];
    const required = isRequiredCustomerField(field);
    return (
      <TextField
        label={required ? spec.label : `${spec.label} (optional)`}
        name={field}
        value={form[field] ?? ''}
        error={shown[field]}
        // The error already says how to fix it: the rule is not said twice.
        hint={shown[field] ? undefined : customerFieldHint(field, mode)}
        required={required}
        inputMode={spec.inputMode}
        placeholder={spec.placeholder}
        inputRef={control.register(field)}
        onChange={(value) => update(field, value)}
      />
    );
  };
  return (
    <fieldset className="customer-fields" disabled={locked}>
      <fieldset>
        <legend>Name and e-mail</legend>
        {text('firstName')}
        {text('lastName')}
        {text('email')}
      </fieldset>
      <fieldset>
        <legend>Home address</legend>
        {text('address1')}
        {text('address2')}
        {text('city')}
        <SelectField
          label="State"
          name="state"
          value={form.state ?? ''}
          options={STATE_OPTIONS}
          placeholder="Choose a state…"
          error={shown.state}
          hint={shown.state ? undefined : customerFieldHint('state', mode)}
          required
          selectRef={control.register('state')}
          onChange={(value) => update('state', value)}
        />
        {text('postalCode')}
      </fieldset>
      <fieldset>
        <legend>Identity</legend>
        {text('dateOfBirth')}
        {ssnField ?? (
          <TextField
            label="SSN, last four digits"
            name="tin"
            value={form.tin ?? ''}
            error={shown.tin}
            hint={shown.tin ? undefined : customerFieldHint('tin', mode)}
            inputMode="numeric"
            required
            inputRef={control.register('tin')}
            onChange={(value) => update('tin', value)}
          />
        )}
        {text('ipAddress')}
        <p className="hint">
          Type: personal — every customer Vetted creates is a verified personal customer.
        </p>
      </fieldset>
    </fieldset>
  );
}
