import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { JournalError, type PersonalData } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { journalFile, openTestJournal, serviceCustomer, TEAM_JOURNAL, WITHOUT_REPLICA } from './helpers.ts';

// Distinctive values: finding any of them in the file's bytes can only mean they were written in clear.
const CUSTOMERS: Record<string, PersonalData> = {
  'c-1': {
    address: { address1: '742 Evergreen Terrace', city: 'Springfield', state: 'OR', postalCode: '97477' },
    dateOfBirth: '1956-05-12',
    ssnLastFour: '8264',
  },
  'c-2': {
    address: {
      address1: '1313 Mockingbird Lane',
      address2: 'Apt Quixotic-7',
      city: 'Mockingbird Heights',
      state: 'CA',
      postalCode: '90210-4321',
    },
    dateOfBirth: '1948-11-03',
    ssnLastFour: '5193',
  },
  'c-3': {
    address: { address1: '221B Baker Street', city: 'Zanzibarville', state: 'NY', postalCode: '10001' },
    dateOfBirth: '1961-07-23',
    ssnLastFour: '7402',
  },
};

const DRAFT_FORMS = [
  {
    firstName: 'Wilhelmina',
    lastName: 'Quackenbush',
    email: 'wq@example.com',
    address1: '31 Spooner Street',
    city: 'Quahog',
    state: 'RI',
    postalCode: '02860',
    dateOfBirth: '1972-02-29',
    tin: '6157',
  },
  {
    firstName: 'Bartholomew',
    lastName: 'Featherstonehaugh',
    email: 'bf@example.com',
    address1: '4 Privet Drive',
    address2: 'Cupboard Under Stairs',
    city: 'Little Whinging',
    state: 'WA',
    postalCode: '98004',
    dateOfBirth: '1980-07-31',
    tin: '3091',
  },
];

// Two-letter state codes are left out: "OR" and "CA" occur in any SQLite file (ORDER, CASCADE).
const PERSONAL_STRINGS = [
  ...Object.values(CUSTOMERS).flatMap(({ address: { state: _, ...address }, dateOfBirth, ssnLastFour }) => [
    ...Object.values(address),
    dateOfBirth,
    ssnLastFour,
  ]),
  ...DRAFT_FORMS.flatMap(({ address1, address2, city, postalCode, dateOfBirth, tin }) => [
    address1,
    address2,
    city,
    postalCode,
    dateOfBirth,
    tin,
  ]),
].filter((value) => value !== undefined);

async function writePersonalData(file: string, dataKey: Buffer) {
  const journal = await openTestJournal({ file, dataKey });
  for (const [id, personal] of Object.entries(CUSTOMERS)) {
    await journal.customers.upsert(serviceCustomer({ id }), { source: 'created' });
    await journal.customers.setPersonal(id, personal);
  }
  const drafts = [];
  for (const form of DRAFT_FORMS) drafts.push(await journal.drafts.insert({ form }));
  return { journal, draftIds: drafts.map((draft) => draft.id) };
}

function personalStringsIn(files: string[]): string[] {
  const bytes = Buffer.concat(
    files.filter((file) => fs.existsSync(file)).map((file) => fs.readFileSync(file)),
  );
  return PERSONAL_STRINGS.filter((value) => bytes.includes(Buffer.from(value, 'utf8')));
}

describe('personal data in the journal', () => {
  it('reads back what it wrote', async () => {
    const { journal, draftIds } = await writePersonalData(journalFile(), createFieldKey());
    for (const [id, personal] of Object.entries(CUSTOMERS))
      expect(await journal.customers.personal(id)).toEqual(personal);
    const forms = await Promise.all(draftIds.map(async (id) => (await journal.drafts.get(id))?.form));
    expect(forms).toEqual(DRAFT_FORMS);
    expect(await journal.customers.personal('nobody')).toBeUndefined();
  });

  // The local file's bytes: the team store's are scanned in test/main/team/journal/journal-plaintext.test.ts.
  it.skipIf(TEAM_JOURNAL)(
    'never writes address, date of birth or SSN digits to the database file or its WAL',
    async () => {
      const file = journalFile();
      const { journal } = await writePersonalData(file, createFieldKey());
      const files = [file, `${file}-wal`, `${file}-shm`];
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      // The check itself can see a value when one is there.
      expect(PERSONAL_STRINGS.length).toBeGreaterThan(20);
      expect(personalStringsIn(files)).toEqual([]);
      await journal.close();
      expect(personalStringsIn(files)).toEqual([]);
      // The names and e-mails the queue searches are kept in clear, and the check would have seen them.
      const bytes = fs.readFileSync(file);
      expect(bytes.includes(Buffer.from('c-1@example.com'))).toBe(true);
    },
  );

  it('fails clearly, naming no personal value, when the data key is not the one that wrote it', async () => {
    const file = journalFile();
    const { journal, draftIds } = await writePersonalData(file, createFieldKey());
    await journal.close();
    const other = await openTestJournal({ file, dataKey: createFieldKey() });
    const read = () => other.customers.personal('c-1');
    await expect(read()).rejects.toThrow(JournalError);
    await expect(read()).rejects.toThrow(
      // The team store seals a customer's personal data as one value (its column `personal`).
      /Cannot decrypt (address|personal) of customers c-1: it was encrypted with another data key/,
    );
    await expect(other.drafts.get(draftIds[0]!)).rejects.toThrow(/Cannot decrypt form of drafts/);
    try {
      await read();
    } catch (error) {
      const message = String((error as Error).message);
      expect(PERSONAL_STRINGS.filter((value) => message.includes(value))).toEqual([]);
    }
    // The queue does not need the key: names and statuses are still there.
    if (!WITHOUT_REPLICA)
      expect((await other.queue.window({ section: 'all', search: '', offset: 0, limit: 10 })).total).toBe(5);
  });

  // Moves tokens in the local file: the team store's own binding is in test/main/team/journal/journal-plaintext.test.ts.
  it.skipIf(TEAM_JOURNAL)(
    'binds each value to its customer and column: a token moved elsewhere does not decrypt',
    async () => {
      const file = journalFile();
      const { journal } = await writePersonalData(file, createFieldKey());
      const raw = new DatabaseSync(file);
      raw.exec(`UPDATE customers SET date_of_birth = (SELECT date_of_birth FROM customers WHERE id = 'c-1')
      WHERE id = 'c-2'`);
      raw.exec(`UPDATE customers SET ssn_last_four = date_of_birth WHERE id = 'c-3'`);
      raw.close();
      await expect(journal.customers.personal('c-2')).rejects.toThrow(
        /Cannot decrypt date_of_birth of customers c-2/,
      );
      await expect(journal.customers.personal('c-3')).rejects.toThrow(
        /Cannot decrypt ssn_last_four of customers c-3/,
      );
      expect(await journal.customers.personal('c-1')).toEqual(CUSTOMERS['c-1']);
    },
  );

  it('refuses to store personal data for a customer it does not have, and a key of the wrong size', async () => {
    const journal = await openTestJournal();
    await expect(journal.customers.setPersonal('nobody', CUSTOMERS['c-1']!)).rejects.toThrow(
      'No customer nobody',
    );
    await expect(openTestJournal({ dataKey: Buffer.alloc(16) })).rejects.toThrow(/32-byte data key/);
  });
});
