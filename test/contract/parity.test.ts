import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_FORBIDDEN_CHARACTERS, validateCustomerCreate } from '#contract/customer-rules.ts';
import { type Harness, harness } from '../sandbox/helpers.ts';
import { samplePerson } from '../support/person.ts';

/**
 * Parity: the form checks a draft with `validateCustomerCreate` from contract/; the service decides. For
 * every input of the table both verdicts (accepted or not) and the field paths and codes of the errors agree.
 */

type Body = Record<string, unknown>;
type Case = [name: string, body: unknown];

/** `YYYY-MM-DD`, `years` before `today` (UTC), shifted by `days`; a 29 February that does not exist becomes the 28th. */
function yearsBefore(today: Date, years: number, days = 0): string {
  const date = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate()));
  if (date.getUTCMonth() !== today.getUTCMonth()) date.setUTCDate(0);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function table(today: Date): Case[] {
  const base = (overrides: Body = {}): Body => ({
    ...samplePerson('Jane', 'Doe', `parity.${randomUUID()}@example.com`),
    ...overrides,
  });
  const without = (field: string): Body => {
    const body = base();
    delete body[field];
    return body;
  };
  return [
    // Accepted
    ['the minimal valid customer', base()],
    ['with address2 and an IPv4 address', base({ address2: 'Apt 2', ipAddress: '203.0.113.7' })],
    ['an IPv6 address', base({ ipAddress: '2001:db8::1' })],
    ['blank optional fields', base({ address2: '', ipAddress: '' })],
    ['ZIP+4', base({ postalCode: '12345-6789' })],
    ['territory PR', base({ state: 'PR' })],
    ['territory GU', base({ state: 'GU' })],
    ['territory VI', base({ state: 'VI' })],
    ['territory AS', base({ state: 'AS' })],
    ['territory MP', base({ state: 'MP' })],
    ['district DC', base({ state: 'DC' })],
    ['unicode names', base({ firstName: 'Zoë', lastName: 'Ólafsdóttir' })],
    ['CJK names', base({ firstName: '太郎', lastName: '山田' })],
    ['apostrophe and hyphen', base({ lastName: "O'Brien-Smith" })],
    ['name of exactly 50 characters', base({ firstName: 'A'.repeat(50) })],
    ['address line of exactly 50 characters', base({ address1: 'B'.repeat(50) })],
    ['accented city', base({ city: 'São Tomé' })],
    ['born on a leap day', base({ dateOfBirth: '2000-02-29' })],
    ['exactly 18 today', base({ dateOfBirth: yearsBefore(today, 18) })],
    ['exactly 125 today', base({ dateOfBirth: yearsBefore(today, 125) })],
    ['e-mail with a plus', base({ email: `a+${randomUUID()}@example.com` })],
    ['firstName chosen to end in retry', base({ firstName: 'retry' })],
    // Required
    ['no firstName', without('firstName')],
    ['blank firstName', base({ firstName: '   ' })],
    ['null lastName', base({ lastName: null })],
    ['no email', without('email')],
    ['no type', without('type')],
    ['no address1', without('address1')],
    ['no city', without('city')],
    ['no state', without('state')],
    ['no postalCode', without('postalCode')],
    ['no dateOfBirth', without('dateOfBirth')],
    ['no tin', without('tin')],
    // Names
    ['firstName of 51 characters', base({ firstName: 'A'.repeat(51) })],
    ['lastName of 51 characters', base({ lastName: 'É'.repeat(51) })],
    ...NAME_FORBIDDEN_CHARACTERS.map(
      (char): Case => [`"${char}" in a name`, base({ lastName: `Do${char}e` })],
    ),
    // E-mail
    ['e-mail without @', base({ email: 'not-an-email' })],
    ['e-mail with a space', base({ email: 'jane doe@example.com' })],
    ['e-mail local part of 65 characters', base({ email: `${'a'.repeat(65)}@example.com` })],
    // Type
    ['type business', base({ type: 'business' })],
    ['type Personal (case)', base({ type: 'Personal' })],
    // Address
    ['address1 of 51 characters', base({ address1: 'B'.repeat(51) })],
    ['city of 51 characters', base({ city: 'C'.repeat(51) })],
    // State
    ['unknown state XX', base({ state: 'XX' })],
    ['lower-case state', base({ state: 'ny' })],
    ['state name instead of code', base({ state: 'New York' })],
    // Postal code
    ['4-digit ZIP', base({ postalCode: '1234' })],
    ['6-digit ZIP', base({ postalCode: '123456' })],
    ['ZIP+3', base({ postalCode: '12345-678' })],
    ['ZIP+4 with a space', base({ postalCode: '12345 6789' })],
    ['letters as ZIP', base({ postalCode: 'ABCDE' })],
    // Date of birth
    ['30 February', base({ dateOfBirth: '2000-02-30' })],
    ['29 February of a common year', base({ dateOfBirth: '2001-02-29' })],
    ['month 13', base({ dateOfBirth: '1990-13-01' })],
    ['slashes', base({ dateOfBirth: '1990/01/01' })],
    ['two-digit year', base({ dateOfBirth: '90-01-01' })],
    ['18 tomorrow', base({ dateOfBirth: yearsBefore(today, 18, 1) })],
    ['126 today', base({ dateOfBirth: yearsBefore(today, 126) })],
    ['born in the future', base({ dateOfBirth: yearsBefore(today, -1) })],
    // Tin
    ['3-digit tin', base({ tin: '123' })],
    ['5-digit tin', base({ tin: '12345' })],
    ['full SSN on create', base({ tin: '123-45-6789' })],
    ['letters as tin', base({ tin: 'abcd' })],
    ['tin as a number', base({ tin: 1234 })],
    // IP address
    ['IPv4 out of range', base({ ipAddress: '999.1.1.1' })],
    ['host name as IP', base({ ipAddress: 'localhost' })],
    // Several at once, and not an object
    [
      'everything wrong at once',
      { firstName: '<b>', email: 'x', type: 'x', state: 'ZZ', postalCode: '1', dateOfBirth: 'x', tin: 'x' },
    ],
    ['an array instead of an object', []],
  ];
}

const pathsAndCodes = (errors: { path: string; code: string }[]) =>
  errors.map(({ path, code }) => `${path} ${code}`).sort();

describe('parity of the contract rules with the service', () => {
  let h: Harness;
  let today: Date;

  beforeAll(async () => {
    h = await harness();
    today = new Date((await h.api('GET', '/sandbox/clock')).json.now);
  });
  afterAll(() => h.close());

  it('agrees on every input of the table: verdict, field paths and codes', async () => {
    const cases = table(today);
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const verdicts = { accepted: 0, refused: 0 };
    const disagreements: string[] = [];
    for (const [name, body] of cases) {
      const contract = pathsAndCodes(validateCustomerCreate(body, { today }));
      const res = await h.api('POST', '/customers', { json: body });
      const service =
        res.status === 201
          ? []
          : pathsAndCodes(res.json?._embedded?.errors ?? [{ path: '?', code: res.json?.code }]);
      if (res.status !== 201 && res.status !== 400)
        disagreements.push(`${name}: service answered ${res.status}`);
      if (JSON.stringify(contract) !== JSON.stringify(service)) {
        disagreements.push(`${name}: contract [${contract}] service [${service}]`);
      }
      verdicts[contract.length === 0 ? 'accepted' : 'refused']++;
    }
    expect(disagreements).toEqual([]);
    expect(verdicts.accepted).toBeGreaterThanOrEqual(20);
    expect(verdicts.refused).toBeGreaterThanOrEqual(40);
  });
});
