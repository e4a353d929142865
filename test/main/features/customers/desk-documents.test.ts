import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentType } from '#contract/document-rules.ts';
import { MAX_DOCUMENT_BYTES } from '#contract/document-rules.ts';
import { uploadFailure } from '#main/features/customers/upload-failure.ts';
import { createOnService, type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';

/** ID documents through the desk, on the built-in sandbox: upload, review on its clock, refusals. */

const sample = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../../../assets/sandbox-ids', name));
const PNG_START = Buffer.from('89504e470d0a1a0a', 'hex');
const pngOf = (size: number) => Buffer.concat([PNG_START, Buffer.alloc(size - PNG_START.byteLength)]);

describe('desk: ID documents on the sandbox', () => {
  let h: DeskHarness;
  let serial = 0;

  /** A customer in `document` (or, by first name, another status) that the desk knows. */
  const customer = async (firstName = 'document') => {
    const id = await createOnService(h, firstName, `doc-${++serial}@example.com`);
    await h.call('customers.add', { ref: id });
    return id;
  };
  const upload = (
    customerId: string,
    fileName: string,
    bytes: Buffer,
    documentType: DocumentType = 'passport',
  ) =>
    h.call('documents.upload', {
      customerId,
      uploadId: randomUUID(),
      documentType,
      fileName,
      bytesBase64: bytes.toString('base64'),
    });
  const auditOf = (customerId: string) => {
    const db = new DatabaseSync(path.join(h.dataDir, 'journal.db'), { readOnly: true });
    try {
      return db
        .prepare("SELECT outcome, detail FROM audit_log WHERE action = 'document.upload' AND customer_id = ?")
        .all(customerId);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    h = await startDesk();
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it('uploads each sample, then follows its review: accepted, rejected with reasons, fraud', async () => {
    const ids = { accepted: await customer(), failed: await customer(), fraud: await customer() };
    const uploadId = randomUUID();
    const created = await h.call('documents.upload', {
      customerId: ids.accepted,
      uploadId,
      documentType: 'passport',
      fileName: 'passport.png',
      bytesBase64: sample('passport.png').toString('base64'),
    });
    expect(created.url).toMatch(new RegExp(`/documents/${created.id}$`));
    await upload(ids.failed, 'passport-blurry-fail.png', sample('passport-blurry-fail.png'), 'license');
    await upload(ids.fraud, 'passport-fraud.png', sample('passport-fraud.png'), 'idCard');

    const progress = h.events.filter(
      (e) => e.event === 'upload.progress' && (e.payload as { uploadId: string }).uploadId === uploadId,
    );
    const last = progress.at(-1)?.payload as { sent: number; total: number };
    expect(last.sent).toBe(last.total);
    expect(last.total).toBeGreaterThan(sample('passport.png').byteLength);

    const waiting = await h.call('documents.list', { customerId: ids.accepted });
    expect(waiting).toMatchObject({ customerStatus: 'document', pending: 1 });
    expect(waiting.documents).toEqual([
      {
        id: created.id,
        url: created.url,
        type: 'passport',
        uploadedAt: expect.any(String),
        review: 'pending',
        reasons: [],
      },
    ]);
    expect((await h.call('customers.get', { id: ids.accepted })).section).toBe('review');

    await h.desk.connection().sandbox!.advanceClock(120);
    // The reviews' outcomes reach the journal by webhook: the list reads the customer's status there.
    const listed = (customerId: string) => h.call('documents.list', { customerId });
    const stored = (id: string) => h.call('customers.get', { id });
    await expect.poll(async () => (await stored(ids.accepted)).status).toBe('verified');
    await expect.poll(async () => (await stored(ids.fraud)).status).toBe('suspended');
    await expect
      .poll(async () => (await stored(ids.failed)).note)
      .toBe('Document rejected: The photo could not be read');

    const accepted = await listed(ids.accepted);
    expect(accepted).toMatchObject({ customerStatus: 'verified', pending: 0 });
    expect(accepted.documents[0]).toMatchObject({ review: 'accepted', reasons: [] });
    expect(await h.call('customers.get', { id: ids.accepted })).toMatchObject({ status: 'verified' });

    const failed = await h.call('documents.list', { customerId: ids.failed });
    expect(failed).toMatchObject({ customerStatus: 'document', pending: 0 });
    expect(failed.documents[0]).toMatchObject({
      type: 'license',
      review: 'rejected',
      reasons: [
        { code: 'ScanNotReadable', text: 'The photo could not be read', description: expect.any(String) },
      ],
    });
    const failedRow = await h.call('customers.get', { id: ids.failed });
    expect(failedRow).toMatchObject({ status: 'document', section: 'document' });
    expect(failedRow.note).toBe('Document rejected: The photo could not be read');

    const fraud = await h.call('documents.list', { customerId: ids.fraud });
    expect(fraud.customerStatus).toBe('suspended');
    expect(await h.call('customers.get', { id: ids.fraud })).toMatchObject({ status: 'suspended' });
    expect(h.events).toContainEqual({
      event: 'customer.updated',
      payload: expect.objectContaining({ id: ids.fraud, status: 'suspended' }),
    });
  });

  it('refuses a fifth pending document, and so would the service', async () => {
    const id = await customer();
    for (let i = 0; i < 4; i++) await upload(id, `passport-${i}.png`, sample('passport.png'));
    await expect(upload(id, 'passport-5.png', sample('passport.png'))).rejects.toMatchObject({
      code: 'MaxNumberOfResources',
      message: expect.stringMatching(/4 documents waiting for review/),
    });
    const direct = await h.desk
      .connection()
      .client()
      .documents.upload(id, {
        documentType: 'passport',
        fileName: 'passport-5.png',
        contentType: 'image/png',
        bytes: sample('passport.png'),
      })
      .catch((error: unknown) => error);
    expect(uploadFailure(direct, false)?.code).toBe('MaxNumberOfResources');
    expect((await h.call('documents.list', { customerId: id })).pending).toBe(4);
  });

  it('refuses an upload to a customer no longer in `document`', async () => {
    const id = await customer('Verity');
    await expect(upload(id, 'passport.png', sample('passport.png'))).rejects.toMatchObject({
      code: 'InvalidResourceState',
      message: expect.stringContaining('“verified”'),
    });
  });

  it('checks the file again in main: type by content, size to the byte', async () => {
    const id = await customer();
    await expect(upload(id, 'notes.png', Buffer.from('not an image at all\n'))).rejects.toMatchObject({
      code: 'InvalidFileType',
    });
    await expect(upload(id, 'huge.png', pngOf(MAX_DOCUMENT_BYTES + 1))).rejects.toMatchObject({
      code: 'FileTooLarge',
    });
    expect(await upload(id, 'exactly-10-mib.png', pngOf(MAX_DOCUMENT_BYTES))).toMatchObject({
      id: expect.any(String),
    });
  });

  it('cancels an upload in flight, and one that has not reached main yet', async () => {
    const id = await customer();
    const uploadId = randomUUID();
    const stop = h.desk.events.subscribe((event, payload) => {
      if (event === 'upload.progress' && (payload as { uploadId: string }).uploadId === uploadId) {
        void h.call('documents.cancel', { uploadId });
      }
    });
    const inFlight = h.call('documents.upload', {
      customerId: id,
      uploadId,
      documentType: 'passport',
      fileName: 'passport.png',
      bytesBase64: pngOf(4 * 1024 * 1024).toString('base64'),
    });
    await expect(inFlight).rejects.toMatchObject({ code: 'UploadCancelled' });
    stop();

    const early = randomUUID();
    expect(await h.call('documents.cancel', { uploadId: early })).toEqual({ cancelled: true });
    await expect(
      h.call('documents.upload', {
        customerId: id,
        uploadId: early,
        documentType: 'passport',
        fileName: 'passport.png',
        bytesBase64: sample('passport.png').toString('base64'),
      }),
    ).rejects.toMatchObject({ code: 'UploadCancelled' });
    expect((await h.call('documents.list', { customerId: id })).documents).toEqual([]);
  });

  it('audits every upload by outcome and document, never by file name', async () => {
    const id = await customer();
    const { id: documentId } = await upload(id, 'jane-doe-passport.png', sample('passport.png'));
    await expect(upload(id, 'jane-doe-notes.png', Buffer.from('text'))).rejects.toThrow();
    expect(auditOf(id)).toEqual([
      { outcome: 'ok', detail: `passport ${documentId}` },
      { outcome: 'refused', detail: 'InvalidFileType' },
    ]);
    expect(h.logLines.join('\n')).not.toContain('jane-doe');
  });
});
