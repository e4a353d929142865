import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOnService,
  type DeskHarness,
  everyFile,
  removeDir,
  startDesk,
} from '#test/support/desk/desk-harness.ts';

/** The case panel's channels through the whole desk on the sandbox: notes, timeline, audit, exports, images. */

const passport = readFileSync(path.join(import.meta.dirname, '../../../../assets/sandbox-ids/passport.png'));
const NOTE = 'Called her: the scar on the passport photo is real.\nSecond line of the note.';

describe('desk: the case panel, the audit log and exports', () => {
  let h: DeskHarness;
  let dataDir: string;
  let customerId: string;

  beforeAll(async () => {
    h = await startDesk();
    dataDir = h.dataDir;
    customerId = await createOnService(h, 'document', 'case-1@example.com');
    await h.call('customers.add', { ref: customerId });
  });
  afterAll(async () => {
    await h.close();
    removeDir(dataDir);
  });

  it('journals a note: in the timeline with who and when, audited without its text, on the queue row', async () => {
    const note = await h.call('notes.add', { customerId, text: `  ${NOTE}  ` });
    expect(note).toMatchObject({ customerId, text: NOTE, author: expect.any(String) });
    expect(note.author.length).toBeGreaterThan(0);

    const timeline = await h.call('customers.timeline', { id: customerId, limit: 50 });
    const entry = timeline.entries.find((item) => item.kind === 'note');
    expect(entry).toMatchObject({ title: 'Note', detail: NOTE, who: note.author });
    // Newest first; the customer's status and its addition are there too.
    expect(timeline.entries[0]?.kind).toBe('note');
    expect(timeline.entries.map((item) => item.title)).toEqual(
      expect.arrayContaining(['Status: Needs document', 'Customer added by id']),
    );

    const audit = await h.call('audit.window', { filter: { action: 'note.add' }, offset: 0, limit: 10 });
    const customer = await h.call('customers.get', { id: customerId });
    // The Audit screen shows the customer's name beside its ID, as the queue does.
    expect(audit.rows).toMatchObject([
      {
        action: 'note.add',
        what: 'Note written',
        customerId,
        customerName: customer.name,
        actor: note.author,
      },
    ]);
    expect(JSON.stringify(audit)).not.toContain('scar');

    const window = await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 50 });
    expect(window.rows.find((row) => row.id === customerId)?.latestNote).toBe(
      'Called her: the scar on the passport photo is real.',
    );
    expect(
      h.events.some(
        ({ event, payload }) => event === 'customer.updated' && JSON.stringify(payload).includes('scar'),
      ),
    ).toBe(true);
  });

  it('refuses an empty note and one over 4,000 characters, in words', async () => {
    await expect(h.call('notes.add', { customerId, text: '   ' })).rejects.toThrow(/not valid/);
    await expect(h.call('notes.add', { customerId, text: 'x'.repeat(4001) })).rejects.toMatchObject({
      fields: { '/text': 'A note holds at most 4,000 characters.' },
    });
    await expect(h.call('notes.add', { customerId: randomUUID(), text: 'hello' })).rejects.toThrow(
      /customer/i,
    );
  });

  it('keeps an uploaded document’s image encrypted, shows it, and purges it (audited)', async () => {
    const uploaded = await h.call('documents.upload', {
      customerId,
      uploadId: randomUUID(),
      documentType: 'passport',
      fileName: 'passport.png',
      bytesBase64: passport.toString('base64'),
    });
    const stored = await h.call('documents.stored', { customerId });
    expect(stored).toMatchObject([
      { documentId: uploaded.id, documentType: 'passport', contentType: 'image/png' },
    ]);
    const image = await h.call('documents.image', { documentId: uploaded.id });
    expect(Buffer.from(image.base64, 'base64').equals(passport)).toBe(true);

    // The image's bytes are nowhere in the data directory as they are (a distinctive slice of them).
    const slice = passport.subarray(200, 264);
    expect(everyFile(dataDir).some((file) => file.includes(slice))).toBe(false);

    expect(await h.call('documents.purgeImage', { documentId: uploaded.id })).toEqual({ purged: true });
    expect(await h.call('documents.stored', { customerId })).toEqual([]);
    await expect(h.call('documents.image', { documentId: uploaded.id })).rejects.toMatchObject({
      code: 'NoStoredImage',
    });
    const timeline = await h.call('customers.timeline', { id: customerId, limit: 50 });
    expect(timeline.entries.map((item) => item.title)).toEqual(
      expect.arrayContaining(['Document uploaded', 'Stored document image removed']),
    );
  });

  it('audits settings changes by name, never by value', async () => {
    await h.call('settings.update', { notifications: false });
    const audit = await h.call('audit.window', {
      filter: { action: 'settings.change' },
      offset: 0,
      limit: 5,
    });
    expect(audit.rows[0]).toMatchObject({ what: 'Settings changed', detail: 'notifications' });
    expect(audit.actions.map((item) => item.action)).toContain('settings.change');
  });

  it('exports the audit log as CSV and JSON Lines, filtered, and audits the export', async () => {
    const csv = await h.call('audit.export', { filter: { customerId }, format: 'csv' });
    expect(csv.mimeType).toBe('text/csv');
    expect(csv.fileName).toMatch(/^vetted-audit-.*\.csv$/);
    const lines = csv.content.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Entry,When,Who,What,Action,Customer,Outcome,Detail,Chain hash');
    expect(lines).toHaveLength(csv.count + 1);
    // Full times to the millisecond, where the screen shows minutes (and the full time on hover); the entry's
    // number in the chain first.
    expect(lines[1]).toMatch(/^\d+,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,/);
    expect(lines.slice(1).every((line) => line.includes(customerId))).toBe(true);
    expect(lines.slice(1).every((line) => /,[0-9a-f]{64}$/.test(line))).toBe(true);

    const jsonl = await h.call('audit.export', { filter: { action: 'note.add' }, format: 'jsonl' });
    const rows = jsonl.content
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    // Each entry with its place in the chain, and the chain's head last (test/main/features/case/audit-export.test.ts).
    expect(rows).toMatchObject([
      { action: 'note.add', customerId, chain: { hash: expect.stringMatching(/^[0-9a-f]{64}$/) } },
      { head: { entries: 1, filter: { action: 'note.add' } } },
    ]);
    // A name is personal data: the export leaves it out, as the queue's masked export does.
    expect(rows[0]).not.toHaveProperty('customerName');
    expect(jsonl.content).not.toContain((await h.call('customers.get', { id: customerId })).name);
    const exports = await h.call('audit.window', { filter: { action: 'audit.export' }, offset: 0, limit: 5 });
    expect(exports.total).toBe(2);
  });

  it('exports the queue view masked, and in full only with a reason the audit log records', async () => {
    const masked = await h.call('queue.export', { section: 'all', search: 'case-1' });
    expect(masked.count).toBe(1);
    expect(masked.content).toContain(customerId);
    expect(masked.content).toContain('d••• O•••');
    expect(masked.content).toContain('c•••@example.com');
    expect(masked.content).not.toContain('Okafor');

    await expect(
      h.call('queue.export', { section: 'all', search: 'case-1', revealReason: 'x' }),
    ).rejects.toThrow();
    const full = await h.call('queue.export', {
      section: 'all',
      search: 'case-1',
      revealReason: 'monthly report to compliance',
    });
    expect(full.content).toContain('document Okafor');
    expect(full.content).toContain('case-1@example.com');
    const reveals = await h.call('audit.window', {
      filter: { action: 'personal.reveal' },
      offset: 0,
      limit: 5,
    });
    expect(reveals.rows[0]?.detail).toMatch(/Reason: monthly report to compliance/);
  });

  it('keeps notes and the audit log across a restart on the same data directory', async () => {
    await h.close();
    h = await startDesk(dataDir);
    const timeline = await h.call('customers.timeline', { id: customerId, limit: 50 });
    expect(timeline.entries.find((item) => item.kind === 'note')?.detail).toBe(NOTE);
    const audit = await h.call('audit.window', { filter: { customerId }, offset: 0, limit: 100 });
    expect(audit.rows.map((row) => row.action)).toContain('note.add');
  });

  it('caps the timeline and says when older entries exist', async () => {
    for (let i = 0; i < 4; i++) await h.call('notes.add', { customerId, text: `note ${i}` });
    const short = await h.call('customers.timeline', { id: customerId, limit: 3 });
    expect(short.entries.map((item) => item.detail)).toEqual(['note 3', 'note 2', 'note 1']);
    expect(short.hasOlder).toBe(true);
    const all = await h.call('customers.timeline', { id: customerId, limit: 2000 });
    expect(all.hasOlder).toBe(false);
  });
});
