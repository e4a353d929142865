// The team store never holds a person in plaintext: names, e-mails, addresses, dates of birth, SSN digits
// and the service's extra fields are sealed on the desk with the team key before they reach PostgreSQL.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { PersonalData } from '#main/data/journal/index.ts';
import { serviceCustomer } from '#test/main/data/journal/helpers.ts';
import { connectTo, openDesk, teamStore } from '#test/support/team/team-journal.ts';

const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';

// Distinctive values: finding one in the store can only mean it was written in clear.
const PEOPLE: Array<{
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  personal: PersonalData;
}> = [
  {
    id: 'c-1',
    firstName: 'Wilhelmina',
    lastName: 'Quackenbush',
    email: 'wilhelmina.q@zanzibar.example',
    personal: {
      address: { address1: '31 Spooner Street', city: 'Quahogville', state: 'RI', postalCode: '02860-7781' },
      dateOfBirth: '1937-04-26',
      ssnLastFour: '7319',
    },
  },
  {
    id: 'c-2',
    firstName: 'Bartholomew',
    lastName: 'Featherstonehaugh',
    email: 'bart.fh@gryphon.example',
    personal: {
      address: {
        address1: '4 Privet Drive',
        address2: 'Cupboard Under Stairs',
        city: 'Little Whinging',
        state: 'WA',
        postalCode: '98004-1133',
      },
      dateOfBirth: '1941-09-17',
      ssnLastFour: '6055',
    },
  },
];
const REPORTED = { phone: '5058675309', businessName: 'Ptarmigan Quills LLC' };

const PERSONAL_STRINGS = [
  ...PEOPLE.flatMap(({ firstName, lastName, email, personal: { address, dateOfBirth, ssnLastFour } }) => [
    firstName,
    lastName,
    email,
    address.address1,
    address.address2,
    address.city,
    address.postalCode,
    dateOfBirth,
    ssnLastFour,
  ]),
  ...Object.values(REPORTED),
].filter((value): value is string => value !== undefined);

async function storeWithPeople() {
  const store = await teamStore();
  const desk = await openDesk(store);
  for (const { personal, ...person } of PEOPLE) {
    await desk.journal.customers.upsert(serviceCustomer({ ...person, status: 'retry' }), {
      source: 'created',
    });
    await desk.journal.customers.upsert(serviceCustomer({ ...person, status: 'document', ...REPORTED }), {
      source: 'event',
      eventId: `ev-${person.id}`,
    });
    await desk.journal.customers.setPersonal(person.id, personal);
    await desk.journal.customers.setDocuments(person.id, {
      pending: 1,
      note: `${person.lastName} sent a scan`,
    });
  }
  return { store, desk };
}

/** Every text value of every column of every table in the team's schema. */
async function everyTextValue(url: string): Promise<string[]> {
  const client = await connectTo(url);
  const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'vetted' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'character')`,
  );
  expect(columns.length).toBeGreaterThan(20);
  const values: string[] = [];
  for (const { table_name, column_name } of columns) {
    const { rows } = await client.query<{ value: string | null }>(
      `SELECT ${client.escapeIdentifier(column_name)}::text AS value FROM vetted.${client.escapeIdentifier(table_name)}`,
    );
    for (const { value } of rows) if (value !== null) values.push(value);
  }
  return values;
}

describe('the team store holds no personal data in plaintext', () => {
  it('in any text column of any table', async () => {
    const { store, desk } = await storeWithPeople();
    const values = await everyTextValue(store.url);
    // The scan sees the store's contents: ids and statuses are kept in clear.
    expect(values).toEqual(expect.arrayContaining(['c-1', 'c-2', 'document']));
    expect(PERSONAL_STRINGS.filter((secret) => values.some((value) => value.includes(secret)))).toEqual([]);
    // And the desk reads it all back with the team key.
    expect(await desk.journal.customers.get('c-1')).toMatchObject({
      name: 'Wilhelmina Quackenbush',
      email: 'wilhelmina.q@zanzibar.example',
      note: 'Quackenbush sent a scan',
    });
    expect(await desk.journal.customers.personal('c-2')).toEqual(PEOPLE[1]?.personal);
    expect(await desk.journal.customers.reported('c-1')).toEqual(REPORTED);
  });

  it('in the database dump (pg_dump)', async () => {
    const { store } = await storeWithPeople();
    const { stdout } = await promisify(execFile)(PG_DUMP, ['--data-only', '--schema=vetted', store.url], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stdout).toContain('COPY vetted.customers');
    expect(stdout).toContain('c-2');
    expect(PERSONAL_STRINGS.filter((secret) => stdout.includes(secret))).toEqual([]);
  });

  it('binds each sealed value to its customer and column: a token moved elsewhere does not open', async () => {
    const { store, desk } = await storeWithPeople();
    const admin = await connectTo(store.url);
    await admin.query(`UPDATE vetted.customers SET personal = (SELECT personal FROM vetted.customers WHERE id = 'c-1'),
      reported = (SELECT reported FROM vetted.customers WHERE id = 'c-1') WHERE id = 'c-2'`);
    await admin.query(`UPDATE vetted.customers SET profile = personal WHERE id = 'c-1'`);
    await expect(desk.journal.customers.personal('c-2')).rejects.toThrow(
      /Cannot decrypt personal of customers c-2/,
    );
    await expect(desk.journal.customers.reported('c-2')).rejects.toThrow(
      /Cannot decrypt reported of customers c-2/,
    );
    await expect(desk.journal.customers.get('c-1')).rejects.toThrow(
      /Cannot decrypt profile of customers c-1/,
    );
    expect(await desk.journal.customers.personal('c-1')).toEqual(PEOPLE[0]?.personal);
  });

  it('is unreadable with another team key, and says so without naming anyone', async () => {
    const { store } = await storeWithPeople();
    const stranger = await openDesk({ url: store.url, teamKey: Buffer.alloc(32, 7) });
    const failure = await stranger.journal.customers.get('c-1').catch((error: Error) => error);
    expect(String(failure)).toMatch(/Cannot decrypt profile of customers c-1: it was encrypted with another/);
    expect(PERSONAL_STRINGS.filter((secret) => String(failure).includes(secret))).toEqual([]);
  });
});
