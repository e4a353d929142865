import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';

/** The case file through the whole desk (solo) on the sandbox: made, saved as the exports are, audited. */

const FULL_SSN = '987-65-4321';
const passport = readFileSync(path.join(import.meta.dirname, '../../../../assets/sandbox-ids/passport.png'));
const work = mkdtempSync(path.join(os.tmpdir(), 'vetted-desk-case-file-'));

const textOf = (content: string, name: string) => {
  const file = path.join(work, name);
  writeFileSync(file, Buffer.from(content, 'base64'));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
};

describe('desk: the case file', () => {
  let h: DeskHarness;
  let customerId: string;

  beforeAll(async () => {
    h = await startDesk();
    const form = validForm({ firstName: 'retry', lastName: 'Okafor' });
    const { id } = await h.call('drafts.create');
    await h.call('drafts.save', { id, form });
    await h.call('drafts.submit', { ids: [id] });
    await until(async () => {
      const draft = await h.call('drafts.get', { id });
      customerId = draft.customerId ?? '';
      return customerId !== '' && (await h.call('customers.get', { id: customerId })).status === 'retry';
    }, 'the customer created and in retry');
    // The one retry, with the full SSN, asks for a document next.
    await h.call('retry.submit', {
      customerId,
      form: { ...form, firstName: 'document', tin: FULL_SSN },
      confirmed: true,
    });
    await h.call('notes.add', { customerId, text: 'Checked the address against the utility bill.' });
    await h.call('documents.upload', {
      customerId,
      uploadId: crypto.randomUUID(),
      documentType: 'passport',
      fileName: 'passport.png',
      bytesBase64: passport.toString('base64'),
    });
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
    removeDir(work);
  });

  it('makes a PDF of the case, masked, with its statuses, note, document and audit entries, and audits it', async () => {
    const file = await h.call('case.file', { customerId, pageSize: 'Letter' });
    expect(file).toMatchObject({
      mimeType: 'application/pdf',
      encoding: 'base64',
      fileName: expect.stringMatching(/^vetted-case-.*\.pdf$/),
    });
    expect(Buffer.from(file.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const text = textOf(file.content, 'masked.pdf');
    const customer = await h.call('customers.get', { id: customerId });
    for (const words of [
      customer.name,
      customerId,
      'working alone',
      'Needs retry',
      'Checked the address against the utility bill.',
      'passport',
      'None: this desk works alone',
      'Case file produced',
      'Verification retry submitted',
      'verify-audit --file',
      '•••-••-4321',
      `Page ${file.count} of ${file.count}`,
    ]) {
      expect(text, words).toContain(words);
    }
    expect(text).not.toContain(FULL_SSN);
    expect(text).not.toContain(FULL_SSN.replaceAll('-', ''));
    // The date of birth (1984-02-29) in none of the ways a date is written; not a bare '1984', which the
    // sample's random e-mail address may hold.
    for (const birth of [
      '1984-02-29',
      '02/29/1984',
      '29/02/1984',
      'Feb 29, 1984',
      '29 Feb 1984',
      'February 29',
    ]) {
      expect(text).not.toContain(birth);
    }
    const audit = await h.call('audit.window', { filter: { action: 'case.file' }, offset: 0, limit: 5 });
    expect(audit.rows).toMatchObject([
      { customerId, what: 'Case file produced', detail: 'Letter, personal data masked' },
    ]);
  });

  it('shows personal data in full only with a reason, recorded as a reveal; never the full SSN', async () => {
    await expect(h.call('case.file', { customerId, pageSize: 'A4', revealReason: 'x' })).rejects.toThrow();
    const file = await h.call('case.file', {
      customerId,
      pageSize: 'A4',
      revealReason: 'examiner’s request 42',
    });
    const text = textOf(file.content, 'full.pdf');
    expect(text).toContain('Reason: examiner’s request 42');
    expect(text).toContain(validForm().address1!);
    expect(text).not.toContain(FULL_SSN);
    const reveals = await h.call('audit.window', {
      filter: { action: 'personal.reveal' },
      offset: 0,
      limit: 5,
    });
    expect(reveals.rows[0]).toMatchObject({
      customerId,
      detail: expect.stringContaining('examiner’s request 42'),
    });
    expect(JSON.stringify([h.logLines, h.events])).not.toContain(FULL_SSN);
  });
});
