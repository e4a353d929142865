import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_FIELDS,
  customerFieldHint,
  type FieldError,
  isRequiredCustomerField,
  NAME_FORBIDDEN_CHARACTERS,
  US_STATES,
  validateCustomerCreate,
  validateCustomerField,
  validateCustomerRetry,
} from '#contract/customer-rules.ts';

const today = new Date('2026-06-15T12:00:00Z');

const valid = {
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@example.com',
  ipAddress: '203.0.113.7',
  type: 'personal',
  address1: '1 Main St',
  address2: 'Apt 2',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  dateOfBirth: '1990-01-01',
  tin: '1234',
};

const errorsFor = (input: Record<string, unknown>): FieldError[] => validateCustomerCreate(input, { today });
const only = (input: Record<string, unknown>) =>
  errorsFor(input).map(({ path, code, message }) => ({ path, code, message }));

describe('validateCustomerCreate (service-facts.md §4)', () => {
  it('accepts a complete, valid customer', () => {
    expect(errorsFor(valid)).toEqual([]);
  });

  it('reports every problem at once, in field order, each with a hint', () => {
    const errors = errorsFor({});
    expect(errors.map((e) => e.path)).toEqual([
      '/firstName',
      '/lastName',
      '/email',
      '/type',
      '/address1',
      '/city',
      '/state',
      '/postalCode',
      '/dateOfBirth',
      '/tin',
    ]);
    expect(errors.every((e) => e.code === 'Required' && e.hint.length > 10)).toBe(true);
  });

  it('firstName/lastName: required, at most 50 characters', () => {
    expect(only({ ...valid, firstName: '  ' })).toEqual([
      { path: '/firstName', code: 'Required', message: 'FirstName required.' },
    ]);
    expect(errorsFor({ ...valid, lastName: 'x'.repeat(50) })).toEqual([]);
    expect(only({ ...valid, lastName: 'x'.repeat(51) })).toEqual([
      { path: '/lastName', code: 'InvalidFormat', message: 'LastName invalid.' },
    ]);
  });

  it.each([...NAME_FORBIDDEN_CHARACTERS])('names may not contain %s', (char) => {
    expect(only({ ...valid, firstName: `Ja${char}ne` })).toEqual([
      { path: '/firstName', code: 'InvalidFormat', message: 'FirstName invalid.' },
    ]);
  });

  it('names may contain apostrophes, hyphens, spaces and accents', () => {
    expect(errorsFor({ ...valid, firstName: "Zoë-Anne O'Neil" })).toEqual([]);
  });

  it.each(['plainaddress', 'a@', '@example.com', 'a b@example.com', 'jane@example'])(
    'email %s is InvalidFormat',
    (email) => {
      expect(only({ ...valid, email })).toEqual([
        { path: '/email', code: 'InvalidFormat', message: 'Email invalid.' },
      ]);
    },
  );

  it('email: at most 64 characters before the @ and 254 in all', () => {
    expect(errorsFor({ ...valid, email: `${'a'.repeat(64)}@example.com` })).toEqual([]);
    expect(only({ ...valid, email: `${'a'.repeat(65)}@example.com` })[0]).toMatchObject({
      code: 'InvalidFormat',
    });
    expect(only({ ...valid, email: `a@${'b'.repeat(250)}.com` })[0]).toMatchObject({ code: 'InvalidFormat' });
  });

  it('type must be personal', () => {
    expect(only({ ...valid, type: 'business' })).toEqual([
      { path: '/type', code: 'Invalid', message: 'Type invalid.' },
    ]);
    expect(only({ ...valid, type: undefined })).toEqual([
      { path: '/type', code: 'Required', message: 'Type required.' },
    ]);
  });

  it('address1 and city: required, at most 50 characters; address2 optional', () => {
    expect(only({ ...valid, address1: '' })[0]).toMatchObject({ path: '/address1', code: 'Required' });
    expect(only({ ...valid, city: 'c'.repeat(51) })[0]).toMatchObject({
      path: '/city',
      code: 'InvalidFormat',
    });
    expect(errorsFor({ ...valid, address2: undefined })).toEqual([]);
    expect(errorsFor({ ...valid, address2: '' })).toEqual([]);
  });

  it.each(['NY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP'])('state %s is accepted', (state) => {
    expect(errorsFor({ ...valid, state })).toEqual([]);
  });

  it.each(['ny', 'XX', 'New York', 'N'])('state %s is InvalidFormat', (state) => {
    expect(only({ ...valid, state })).toEqual([
      { path: '/state', code: 'InvalidFormat', message: 'State invalid.' },
    ]);
  });

  it.each(['12345', '12345-6789'])('postal code %s is accepted', (postalCode) => {
    expect(errorsFor({ ...valid, postalCode })).toEqual([]);
  });

  it.each(['1234', '123456', '12345-678', '12345 6789', 'ABCDE'])(
    'postal code %s is InvalidFormat',
    (postalCode) => {
      expect(only({ ...valid, postalCode })[0]).toMatchObject({ path: '/postalCode', code: 'InvalidFormat' });
    },
  );

  it.each(['1990-02-30', '2001-02-29', '1990-13-01', '1990-1-1', '01/01/1990', '1990-01-01T00:00:00Z'])(
    'date of birth %s is not a real YYYY-MM-DD date',
    (dateOfBirth) => {
      expect(only({ ...valid, dateOfBirth })[0]).toMatchObject({
        path: '/dateOfBirth',
        code: 'InvalidFormat',
      });
    },
  );

  it('date of birth: age 18 to 125 on the given day, else NotAllowed', () => {
    const age = (dateOfBirth: string) => errorsFor({ ...valid, dateOfBirth });
    expect(age('2008-06-15')).toEqual([]); // 18 today
    expect(age('2000-02-29')).toEqual([]); // a real leap day
    expect(only({ ...valid, dateOfBirth: '2008-06-16' })).toEqual([
      { path: '/dateOfBirth', code: 'NotAllowed', message: 'DateOfBirth value not allowed.' },
    ]);
    expect(age('1901-06-15')).toEqual([]); // 125 today
    expect(age('1900-06-16')).toEqual([]); // 125 until tomorrow
    expect(age('1900-06-15')[0]).toMatchObject({ code: 'NotAllowed' }); // 126 today
    expect(age('2030-01-01')[0]).toMatchObject({ code: 'NotAllowed' }); // not born yet
  });

  it('tin on create: exactly four digits', () => {
    expect(only({ ...valid, tin: '123-45-6789' })).toEqual([
      { path: '/tin', code: 'InvalidFormat', message: 'Ssn invalid.' },
    ]);
    expect(only({ ...valid, tin: '123' })[0]).toMatchObject({ code: 'InvalidFormat' });
    expect(only({ ...valid, tin: '12a4' })[0]).toMatchObject({ code: 'InvalidFormat' });
  });

  it.each(['10.0.0.1', '2001:db8::1', '::1', '::ffff:192.0.2.1'])('ipAddress %s is accepted', (ipAddress) => {
    expect(errorsFor({ ...valid, ipAddress })).toEqual([]);
  });

  it.each(['256.0.0.1', '1.2.3', 'localhost', '2001:db8:::1'])(
    'ipAddress %s is InvalidFormat',
    (ipAddress) => {
      expect(only({ ...valid, ipAddress })).toEqual([
        { path: '/ipAddress', code: 'InvalidFormat', message: 'IpAddress invalid.' },
      ]);
    },
  );

  it('ipAddress is optional', () => {
    expect(errorsFor({ ...valid, ipAddress: undefined })).toEqual([]);
  });

  it('values of the wrong JSON type are format errors, never exceptions', () => {
    const errors = only({ ...valid, firstName: 42, email: ['a'], type: true, dateOfBirth: {}, tin: 1234 });
    expect(errors).toEqual([
      { path: '/firstName', code: 'InvalidFormat', message: 'FirstName invalid.' },
      { path: '/email', code: 'InvalidFormat', message: 'Email invalid.' },
      { path: '/type', code: 'Invalid', message: 'Type invalid.' },
      { path: '/dateOfBirth', code: 'InvalidFormat', message: 'DateOfBirth invalid.' },
      { path: '/tin', code: 'InvalidFormat', message: 'Ssn invalid.' },
    ]);
  });

  it.each([null, [], 'text', 42])('a body that is not an object (%j) is one Invalid error at /', (input) => {
    expect(validateCustomerCreate(input)).toEqual([
      expect.objectContaining({ path: '/', code: 'Invalid', message: 'Request body must be a JSON object.' }),
    ]);
  });

  it('ignores unknown fields', () => {
    expect(errorsFor({ ...valid, nickname: 'JD', businessName: 42 })).toEqual([]);
  });
});

describe('validateCustomerRetry', () => {
  it('wants the full tin NNN-NN-NNNN', () => {
    expect(validateCustomerRetry({ ...valid, tin: '123-45-6789' }, { today })).toEqual([]);
    expect(validateCustomerRetry({ ...valid, tin: '1234' }, { today })).toEqual([
      expect.objectContaining({ path: '/tin', code: 'InvalidFormat', message: 'Ssn invalid.' }),
    ]);
    expect(validateCustomerRetry({ ...valid, tin: '123456789' }, { today })[0]).toMatchObject({
      path: '/tin',
    });
  });

  it('checks every other field as on create', () => {
    const errors = validateCustomerRetry({ ...valid, tin: '123-45-6789', email: 'x' }, { today });
    expect(errors.map((e) => e.path)).toEqual(['/email']);
  });

  it('hints differ for the tin by mode', () => {
    expect(customerFieldHint('tin', 'create')).toMatch(/last 4 digits/);
    expect(customerFieldHint('tin', 'retry')).toMatch(/NNN-NN-NNNN/);
  });
});

describe('form helpers', () => {
  it('CUSTOMER_FIELDS lists every field of the create input', () => {
    expect(CUSTOMER_FIELDS).toEqual(Object.keys(valid));
    expect(CUSTOMER_FIELDS.filter((field) => !isRequiredCustomerField(field))).toEqual([
      'ipAddress',
      'address2',
    ]);
  });

  it('validateCustomerField checks one field alone', () => {
    expect(validateCustomerField('email', 'x', 'create')).toMatchObject({
      code: 'InvalidFormat',
      path: '/email',
    });
    expect(validateCustomerField('email', 'a@example.com', 'create')).toBeNull();
    expect(validateCustomerField('dateOfBirth', '1990-02-30', 'create')?.hint).toBe(
      'Date of birth must be a real date, YYYY-MM-DD, age 18 to 125.',
    );
  });

  it('US_STATES: 50 states, DC and 5 territories, unique upper-case codes with names', () => {
    expect(US_STATES).toHaveLength(56);
    expect(new Set(US_STATES.map((s) => s.code)).size).toBe(56);
    expect(US_STATES.every((s) => /^[A-Z]{2}$/.test(s.code) && s.name.length > 2)).toBe(true);
  });
});
