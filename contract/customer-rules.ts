/**
 * The service's validation rules for a personal customer (service-facts.md §4), as pure functions.
 * The sandbox answers with them and the desktop form checks with them, so both agree to the letter.
 * No Node and no DOM here: this file runs in the main process, the renderer and the sandbox.
 * Uniqueness of the e-mail (`Duplicate`) needs the customer store and is not a rule of this file.
 */
import { z } from 'zod';
import { isUsStateCode } from './us-states.ts';

export { isUsStateCode, US_STATES, type UsState } from './us-states.ts';

export type FieldErrorCode =
  | 'Required'
  | 'Invalid'
  | 'InvalidFormat'
  | 'NotAllowed'
  | 'Duplicate'
  | 'ReadOnly';

export interface FieldError {
  /** JSON pointer to the field, e.g. "/email"; "/" for the whole body. */
  path: string;
  code: FieldErrorCode;
  /** The message the service sends, e.g. "Email invalid.". */
  message: string;
  /** A fix-it sentence for a person filling in the form. */
  hint: string;
}

export const CUSTOMER_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'ipAddress',
  'type',
  'address1',
  'address2',
  'city',
  'state',
  'postalCode',
  'dateOfBirth',
  'tin',
] as const;

export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** What a client sends on create and on retry; every value is a string. */
export type CustomerInput = { [F in CustomerField]?: string };

/** `create` takes the last four digits of the tin; `retry` the full `NNN-NN-NNNN`. */
export type CustomerRulesMode = 'create' | 'retry';

export interface CustomerRulesOptions {
  /** The day ages are computed on (UTC); defaults to now. */
  today?: Date;
}

export const NAME_MAX_LENGTH = 50;
export const ADDRESS_MAX_LENGTH = 50;
export const NAME_FORBIDDEN_CHARACTERS: readonly string[] = [
  '<',
  '>',
  '=',
  '"',
  '`',
  '!',
  '?',
  '%',
  '~',
  '$',
  '{',
  '}',
];
export const MIN_AGE = 18;
export const MAX_AGE = 125;

type RuleFailure = Exclude<FieldErrorCode, 'Required' | 'Duplicate' | 'ReadOnly'>;

interface FieldRule {
  required: boolean;
  /** How the service names the field in its messages ("FirstName required."). */
  label: string;
  hint(mode: CustomerRulesMode): string;
  /** The code for a present value that breaks the rule; null when the value is fine. */
  check(value: string, mode: CustomerRulesMode, today: Date): RuleFailure | null;
}

const emailSchema = z.email();
const ipSchema = z.union([z.ipv4(), z.ipv6()]);

// RFC 5321 limits: 64 characters before the @, 254 in all.
function isEmailAddress(value: string): boolean {
  const at = value.lastIndexOf('@');
  return value.length <= 254 && at > 0 && at <= 64 && emailSchema.safeParse(value).success;
}

function hasForbiddenCharacter(value: string): boolean {
  return NAME_FORBIDDEN_CHARACTERS.some((char) => value.includes(char));
}

function nameRule(label: string, what: string): FieldRule {
  return {
    required: true,
    label,
    hint: () =>
      `Enter the ${what}, up to ${NAME_MAX_LENGTH} characters, without any of ${NAME_FORBIDDEN_CHARACTERS.join(' ')}.`,
    check: (value) =>
      value.length > NAME_MAX_LENGTH || hasForbiddenCharacter(value) ? 'InvalidFormat' : null,
  };
}

function addressRule(label: string, what: string): FieldRule {
  return {
    required: true,
    label,
    hint: () => `Enter the ${what}, up to ${ADDRESS_MAX_LENGTH} characters.`,
    check: (value) => (value.length > ADDRESS_MAX_LENGTH ? 'InvalidFormat' : null),
  };
}

/** Parses a real calendar date `YYYY-MM-DD`; null for anything else (2001-02-30 included). */
export function parseIsoDate(value: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year); // Date.UTC maps years 0..99 to 1900..1999
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? { year, month, day } : null;
}

/** Full years from the birth date to `today` (UTC); negative for a date in the future. */
export function ageOn(birth: { year: number; month: number; day: number }, today: Date): number {
  const age = today.getUTCFullYear() - birth.year;
  const month = today.getUTCMonth() + 1;
  const birthdayPassed = month > birth.month || (month === birth.month && today.getUTCDate() >= birth.day);
  return birthdayPassed ? age : age - 1;
}

function checkDateOfBirth(value: string, today: Date): RuleFailure | null {
  const birth = parseIsoDate(value);
  if (!birth) return 'InvalidFormat';
  const age = ageOn(birth, today);
  return age < MIN_AGE || age > MAX_AGE ? 'NotAllowed' : null;
}

const FIELD_RULES: Record<CustomerField, FieldRule> = {
  firstName: nameRule('FirstName', 'first name'),
  lastName: nameRule('LastName', 'last name'),
  email: {
    required: true,
    label: 'Email',
    hint: () => 'Enter a valid e-mail address, such as name@example.com.',
    check: (value) => (isEmailAddress(value) ? null : 'InvalidFormat'),
  },
  ipAddress: {
    required: false,
    label: 'IpAddress',
    hint: () => 'Leave the IP address empty or enter a valid IPv4 or IPv6 address.',
    check: (value) => (ipSchema.safeParse(value).success ? null : 'InvalidFormat'),
  },
  type: {
    required: true,
    label: 'Type',
    hint: () => 'The customer type must be "personal" for a verified personal customer.',
    check: (value) => (value === 'personal' ? null : 'Invalid'),
  },
  address1: addressRule('Address1', 'first line of the home address'),
  address2: {
    required: false,
    label: 'Address2',
    hint: () => 'The second address line is optional text.',
    check: () => null,
  },
  city: addressRule('City', 'city'),
  state: {
    required: true,
    label: 'State',
    hint: () => 'Choose a US state or territory: its two-letter upper-case code, such as NY.',
    check: (value) => (isUsStateCode(value) ? null : 'InvalidFormat'),
  },
  postalCode: {
    required: true,
    label: 'PostalCode',
    hint: () => 'Enter a US ZIP code: 5 digits, or 5 digits, a hyphen and 4 digits (12345-6789).',
    check: (value) => (/^\d{5}(-\d{4})?$/.test(value) ? null : 'InvalidFormat'),
  },
  dateOfBirth: {
    required: true,
    label: 'DateOfBirth',
    hint: () => `Date of birth must be a real date, YYYY-MM-DD, age ${MIN_AGE} to ${MAX_AGE}.`,
    check: (value, _mode, today) => checkDateOfBirth(value, today),
  },
  tin: {
    required: true,
    label: 'Ssn',
    hint: (mode) =>
      mode === 'create'
        ? 'Enter the last 4 digits of the Social Security number.'
        : 'Enter the full Social Security number as NNN-NN-NNNN.',
    check: (value, mode) => {
      const pattern = mode === 'create' ? /^\d{4}$/ : /^\d{3}-\d{2}-\d{4}$/;
      return pattern.test(value) ? null : 'InvalidFormat';
    },
  },
};

function messageFor(label: string, code: FieldErrorCode): string {
  if (code === 'Required') return `${label} required.`;
  if (code === 'NotAllowed') return `${label} value not allowed.`;
  return `${label} invalid.`;
}

/** Absent, null and blank all count as "not given"; the form sends "" for an empty input. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Checks one field on its own, e.g. when the form leaves an input. */
export function validateCustomerField(
  field: CustomerField,
  value: unknown,
  mode: CustomerRulesMode,
  options: CustomerRulesOptions = {},
): FieldError | null {
  const rule = FIELD_RULES[field];
  const fail = (code: FieldErrorCode): FieldError => ({
    path: `/${field}`,
    code,
    message: messageFor(rule.label, code),
    hint: rule.hint(mode),
  });
  if (isBlank(value)) return rule.required ? fail('Required') : null;
  if (typeof value !== 'string') return fail(field === 'type' ? 'Invalid' : 'InvalidFormat');
  const failure = rule.check(value, mode, options.today ?? new Date());
  return failure ? fail(failure) : null;
}

function isPlainObject(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

function validateCustomer(
  input: unknown,
  mode: CustomerRulesMode,
  options: CustomerRulesOptions,
): FieldError[] {
  if (!isPlainObject(input)) {
    return [
      {
        path: '/',
        code: 'Invalid',
        message: 'Request body must be a JSON object.',
        hint: 'Send the customer as a JSON object of its fields.',
      },
    ];
  }
  const errors: FieldError[] = [];
  for (const field of CUSTOMER_FIELDS) {
    const error = validateCustomerField(field, input[field], mode, options);
    if (error) errors.push(error);
  }
  return errors;
}

/** Every rule broken by a `POST /customers` body, in field order; empty when it is acceptable. */
export function validateCustomerCreate(input: unknown, options: CustomerRulesOptions = {}): FieldError[] {
  return validateCustomer(input, 'create', options);
}

/** Every rule broken by a retry body (`POST /customers/{id}`): all fields again, with the full tin. */
export function validateCustomerRetry(input: unknown, options: CustomerRulesOptions = {}): FieldError[] {
  return validateCustomer(input, 'retry', options);
}

/** The hint for a field, for showing the rule before anything is typed. */
export function customerFieldHint(field: CustomerField, mode: CustomerRulesMode): string {
  return FIELD_RULES[field].hint(mode);
}

/** Whether the service requires the field on create and on retry. */
export function isRequiredCustomerField(field: CustomerField): boolean {
  return FIELD_RULES[field].required;
}
