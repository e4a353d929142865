import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFieldKey } from '#main/ground/crypto.ts';
import {
  journalFile,
  MINUTE,
  manualClock,
  openTestJournal,
  serviceCustomer,
  WITHOUT_REPLICA,
} from './helpers.ts';

const SECRET_WORDS = 'passport photo shows a scar above the left eyebrow';

/** Every byte SQLite may have written for this journal: the file and its WAL. */
function bytesOnDisk(file: string): Buffer {
  return Buffer.concat(
    [file, `${file}-wal`].filter((name) => fs.existsSync(name)).map((name) => fs.readFileSync(name)),
  );
}

describe('notes', () => {
  it('keeps a customer’s notes with who and when, newest first, and survives reopening', async () => {
    const time = manualClock();
    const file = journalFile();
    const dataKey = createFieldKey();
    const journal = await openTestJournal({ file, dataKey, clock: time.clock, actor: 'ada' });
    await journal.notes.add({ customerId: 'c-1', text: 'Called the customer.' });
    time.advance(MINUTE);
    await journal.notes.add({ customerId: 'c-1', text: 'Asked for a better photo.\nWill check tomorrow.' });
    await journal.notes.add({ customerId: 'c-2', text: 'Other case', author: 'grace' });
    await journal.close();

    const again = await openTestJournal({ file, dataKey });
    expect(await again.notes.list('c-1')).toMatchObject([
      {
        text: 'Asked for a better photo.\nWill check tomorrow.',
        author: 'ada',
        at: '2026-03-01T09:01:00.000Z',
      },
      { text: 'Called the customer.', author: 'ada', at: '2026-03-01T09:00:00.000Z' },
    ]);
    expect(await again.notes.count('c-1')).toBe(2);
    const latest = await again.notes.latest(['c-1', 'c-2', 'c-3']);
    expect(Object.keys(latest).sort()).toEqual(['c-1', 'c-2']);
    expect(latest['c-1']?.text).toMatch(/^Asked/);
  });

  it('finds the customers whose notes contain a term, case-insensitively', async () => {
    const journal = await openTestJournal();
    await journal.notes.add({ customerId: 'c-1', text: 'Blurry PASSPORT photo' });
    await journal.notes.add({ customerId: 'c-2', text: 'Address checked' });
    await journal.notes.add({ customerId: 'c-3', text: 'second passport sent' });
    expect((await journal.notes.customersMatching('passport')).sort()).toEqual(['c-1', 'c-3']);
    expect(await journal.notes.customersMatching('   ')).toEqual([]);
    expect(await journal.notes.customersMatching('nothing like it')).toEqual([]);
  });

  it.skipIf(WITHOUT_REPLICA)(
    'makes the queue search find a customer by its notes, alongside names and e-mails',
    async () => {
      const journal = await openTestJournal();
      for (const [id, firstName] of [
        ['00000000-0000-4000-8000-000000000001', 'Nadia'],
        ['00000000-0000-4000-8000-000000000002', 'Omar'],
      ] as const) {
        await journal.customers.upsert(serviceCustomer({ id, firstName }), { source: 'poll' });
      }
      await journal.notes.add({
        customerId: '00000000-0000-4000-8000-000000000002',
        text: 'Sent to Nadia’s desk',
      });
      const names = async (search: string) =>
        (await journal.queue.window({ section: 'all', search, offset: 0, limit: 10 })).rows.map(
          (row) => row.name,
        );
      expect((await names('nadia')).sort()).toEqual(['Nadia Doe', 'Omar Doe'].sort());
      expect(await names('desk')).toEqual(['Omar Doe']);
      expect(await names('om')).toEqual(['Omar Doe']);
      // A note added after a search is found by the next one.
      await journal.notes.add({ customerId: '00000000-0000-4000-8000-000000000001', text: 'Her desk too' });
      expect((await names('desk')).length).toBe(2);
      expect(
        (await journal.queue.window({ section: 'all', search: 'desk', offset: 0, limit: 10 })).total,
      ).toBe(2);
    },
  );

  it('refuses a note over 4,000 characters, counting characters rather than UTF-16 units', async () => {
    const journal = await openTestJournal();
    await expect(journal.notes.add({ customerId: 'c-1', text: '😀'.repeat(4000) })).resolves.toMatchObject({
      customerId: 'c-1',
    });
    await expect(journal.notes.add({ customerId: 'c-1', text: 'x'.repeat(4001) })).rejects.toThrow(
      /at most 4000/,
    );
  });

  it('stores the text encrypted: it is nowhere on disk in plaintext', async () => {
    const file = journalFile();
    const journal = await openTestJournal({ file });
    await journal.notes.add({ customerId: 'c-1', text: SECRET_WORDS });
    expect(bytesOnDisk(file).includes(Buffer.from('scar above the left eyebrow'))).toBe(false);
    expect((await journal.notes.list('c-1'))[0]?.text).toBe(SECRET_WORDS);
  });
});

describe('stored document images', () => {
  // Not a real PNG beyond its signature: what matters is that these bytes never land on disk as they are.
  const image = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('IDENTITY-DOCUMENT-PIXELS-'.repeat(40)),
  ]);

  it('keeps the image encrypted, lists it without its bytes, gives it back whole, and purges it', async () => {
    const file = journalFile();
    const journal = await openTestJournal({ file });
    const info = await journal.documentImages.store({
      documentId: 'd-1',
      customerId: 'c-1',
      documentType: 'passport',
      contentType: 'image/png',
      base64: image.toString('base64'),
    });
    expect(info).toMatchObject({ documentId: 'd-1', customerId: 'c-1', documentType: 'passport' });
    expect(await journal.documentImages.list('c-1')).toEqual([info]);
    const stored = await journal.documentImages.get('d-1');
    expect(Buffer.from(stored?.base64 ?? '', 'base64').equals(image)).toBe(true);

    const onDisk = bytesOnDisk(file);
    expect(onDisk.includes(Buffer.from('IDENTITY-DOCUMENT-PIXELS'))).toBe(false);
    expect(onDisk.includes(Buffer.from(image.toString('base64').slice(0, 40)))).toBe(false);

    expect(await journal.documentImages.purge('d-1')).toBe(true);
    expect(await journal.documentImages.get('d-1')).toBeUndefined();
    expect(await journal.documentImages.list('c-1')).toEqual([]);
    expect(await journal.documentImages.purge('d-1')).toBe(false);
  });
});
