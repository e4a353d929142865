import { CUSTOMER_FIELDS, type CustomerInput } from '#contract/customer-rules.ts';
import type { PersonalData } from '#main/data/journal/index.ts';

/** The request body: the form's fields as typed, blank ones left out (the rules treat both alike). */
export function customerBody(form: CustomerInput): CustomerInput {
  const body: CustomerInput = {};
  for (const field of CUSTOMER_FIELDS) {
    const value = form[field];
    if (value !== undefined && value.trim() !== '') body[field] = value;
  }
  return body;
}

/** What the journal keeps (encrypted) of a validated form: never more than the SSN's last four digits. */
export function personalData(form: CustomerInput): PersonalData {
  const {
    address1 = '',
    address2,
    city = '',
    state = '',
    postalCode = '',
    dateOfBirth = '',
    tin = '',
  } = form;
  return {
    address: { address1, ...(address2?.trim() ? { address2 } : {}), city, state, postalCode },
    dateOfBirth,
    ssnLastFour: tin.slice(-4),
  };
}
