import {
  type CustomerField,
  type CustomerRulesMode,
  type FieldError,
  validateCustomerCreate,
  validateCustomerRetry,
} from '#contract/customer-rules.ts';
import type { CustomerForm } from '#contract/drafts.ts';

/** The fields a reviewer fills in, in the order the form shows them (`type` is always `personal`). */
export const FORM_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'address1',
  'address2',
  'city',
  'state',
  'postalCode',
  'dateOfBirth',
  'tin',
  'ipAddress',
] as const satisfies readonly CustomerField[];
export type FormField = (typeof FORM_FIELDS)[number];

/** A message to show next to each field that has one. */
export type FieldMessages = Partial<Record<FormField, string>>;

/** Messages by field, and one for the form as a whole (a rule about no single field). */
export interface FormMessages {
  fields: FieldMessages;
  form: string | null;
}
export const NO_MESSAGES: FormMessages = { fields: {}, form: null };

/** Exactly the checks main runs before sending: the contract's, for a create or for a retry. */
export function brokenRules(form: CustomerForm, mode: CustomerRulesMode): FieldError[] {
  return mode === 'create' ? validateCustomerCreate(form) : validateCustomerRetry(form);
}

function formFieldOf(path: string): FormField | null {
  const name = path.replace(/^\//, '');
  return (FORM_FIELDS as readonly string[]).includes(name) ? (name as FormField) : null;
}

/** The rule's fix-it sentence; a missing value says so first. */
export function fixText(error: Pick<FieldError, 'hint'> & { code: string }): string {
  return error.code === 'Required' ? `Required. ${error.hint}` : error.hint;
}

/** Broken rules as messages; a rule on no form field (`type`, "/") speaks for the whole form. */
export function messagesOfRules(errors: readonly FieldError[]): FormMessages {
  const byPath: Record<string, string> = {};
  for (const error of errors) byPath[error.path] ??= fixText(error);
  return messagesOfPaths(byPath);
}

/** Errors keyed by JSON pointer ("/email" → text), as main and the service report them. */
export function messagesOfPaths(byPath: Record<string, string>): FormMessages {
  const fields: FieldMessages = {};
  const other: string[] = [];
  for (const [path, text] of Object.entries(byPath)) {
    const field = formFieldOf(path);
    if (field) fields[field] ??= text;
    else other.push(text);
  }
  return { fields, form: other.length > 0 ? other.join(' ') : null };
}

/** The first field, in the form's order, that has a message. */
export function firstFieldOf(messages: FieldMessages): FormField | undefined {
  return FORM_FIELDS.find((field) => messages[field] !== undefined);
}

/** Fields holding a value: a reopened draft shows what is wrong with them at once. */
export function filledFields(form: CustomerForm): Set<FormField> {
  return new Set(FORM_FIELDS.filter((field) => (form[field] ?? '').trim() !== ''));
}
