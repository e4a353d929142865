import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, idOf, jpeg, MiB, multipart, png, type Res } from './helpers.ts';

/** service-facts.md §5: documents. */
let h: Harness;
beforeAll(async () => {
  h = await harness({ reviewDelayMs: 30_000 });
});
afterAll(() => h.close());

const inDocument = () => h.createCustomer({ firstName: 'document' });
const document = async (res: Res) => (await h.api('GET', String(res.headers.location))).json;

function expectCode(res: Res, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json.code).toBe(code);
}

describe('upload — POST /customers/{id}/documents', () => {
  it.each(['passport', 'license', 'idCard'])('documentType %s is accepted', async (type) => {
    const res = await h.upload(await inDocument(), 'photo.jpg', type);
    expect(res.status).toBe(201);
    expect((await document(res)).type).toBe(type);
  });

  it.each(['other', 'selfie', 'PASSPORT'])('documentType %s: 400 ValidationError', async (type) => {
    const res = await h.upload(await inDocument(), 'photo.jpg', type);
    expectCode(res, 400, 'ValidationError');
    expect(res.json._embedded.errors).toEqual([
      { code: 'Invalid', message: 'DocumentType invalid.', path: '/documentType', _links: {} },
    ]);
  });

  it('missing parts: 400 ValidationError naming both', async () => {
    const id = await inDocument();
    const form = multipart([{ name: 'note', data: Buffer.from('hi') }]);
    const res = await h.api('POST', `/customers/${id}/documents`, {
      body: form.body,
      headers: { 'content-type': form.contentType },
    });
    expectCode(res, 400, 'ValidationError');
    expect(res.json._embedded.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ['/documentType', 'Required'],
      ['/file', 'Required'],
    ]);
  });

  it('a .jpg/.jpeg or .png by content: JPEG and PNG magic bytes pass', async () => {
    expect((await h.upload(await inDocument(), 'a.jpeg', 'passport', jpeg())).status).toBe(201);
    expect((await h.upload(await inDocument(), 'a.png', 'passport', png())).status).toBe(201);
  });

  it('400 InvalidFileType: not an image by content, whatever the name says', async () => {
    const id = await inDocument();
    expectCode(
      await h.upload(id, 'photo.jpg', 'passport', Buffer.from('%PDF-1.7 not an image')),
      400,
      'InvalidFileType',
    );
    expectCode(await h.upload(id, 'photo.png', 'passport', Buffer.alloc(0)), 400, 'InvalidFileType');
    const gif = Buffer.from('GIF89a..........');
    expectCode(await h.upload(id, 'photo.gif', 'passport', gif), 400, 'InvalidFileType');
  });

  it('413 FileTooLarge: over 10 MiB', async () => {
    const big = jpeg(10 * MiB + 1);
    const res = await h.upload(await inDocument(), 'big.jpg', 'passport', big);
    expectCode(res, 413, 'FileTooLarge');
    expect(res.json.message).toBe('Document requests are limited to 10 MiB.');
  });

  it('413 FileTooLarge: a whole request far over the limit', async () => {
    const res = await h.upload(await inDocument(), 'huge.jpg', 'passport', jpeg(12 * MiB));
    expectCode(res, 413, 'FileTooLarge');
  });

  it('400 MaxNumberOfResources: more than 4 documents pending review', async () => {
    const id = await inDocument();
    for (let i = 0; i < 4; i++) expect((await h.upload(id, `fail-${i}.jpg`)).status).toBe(201);
    expectCode(await h.upload(id), 400, 'MaxNumberOfResources');
    await h.sandbox.advanceClock(30); // rejected by review: no longer pending, the customer still in document
    expect((await h.upload(id)).status).toBe(201);
  });

  it('403 InvalidResourceState: customer not in document', async () => {
    for (const firstName of ['Jane', 'retry', 'suspended']) {
      expectCode(await h.upload(await h.createCustomer({ firstName })), 403, 'InvalidResourceState');
    }
  });

  it('415 UnsupportedRequestContentType: not multipart/form-data', async () => {
    const id = await inDocument();
    for (const contentType of ['application/json', 'image/jpeg', 'application/x-www-form-urlencoded']) {
      const res = await h.api('POST', `/customers/${id}/documents`, {
        body: jpeg(),
        headers: { 'content-type': contentType },
      });
      expectCode(res, 415, 'UnsupportedRequestContentType');
    }
    expectCode(
      await h.api('POST', `/customers/${id}/documents`, { body: jpeg() }),
      415,
      'UnsupportedRequestContentType',
    );
  });

  it('404 for an unknown customer', async () => {
    expectCode(await h.upload(crypto.randomUUID()), 404, 'NotFound');
  });

  it('success: 201, Location {base}/documents/{uuid}, then customer_verification_document_uploaded', async () => {
    const id = await inDocument();
    const res = await h.upload(id);
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${h.base}/documents/[0-9a-f-]{36}$`));
    const events = (await h.api('GET', '/events?limit=1')).json._embedded.events;
    expect(events[0]).toMatchObject({
      topic: 'customer_verification_document_uploaded',
      resourceId: idOf(res.headers.location),
    });
    expect(events[0]._links.resource.href).toBe(res.headers.location);
    expect(events[0]._links.customer.href).toBe(`${h.base}/customers/${id}`);
  });
});

describe('GET /documents/{id} and GET /customers/{id}/documents', () => {
  it('a pending document: {_links, id, type, status, documentVerificationStatus, created}', async () => {
    const res = await h.upload(await inDocument());
    const doc = await document(res);
    expect(doc).toEqual({
      _links: {
        self: expect.objectContaining({ href: res.headers.location }),
        customer: expect.objectContaining({ href: expect.stringContaining('/customers/') }),
      },
      id: idOf(res.headers.location),
      type: 'passport',
      status: 'pending',
      documentVerificationStatus: 'pending',
      created: expect.stringMatching(/Z$/),
    });
  });

  it('a rejected document carries failureReason and allFailureReasons [{reason, description}]', async () => {
    const res = await h.upload(await inDocument(), 'fail.jpg');
    await h.sandbox.advanceClock(30);
    const doc = await document(res);
    expect(doc).toMatchObject({
      status: 'reviewed',
      documentVerificationStatus: 'rejected',
      failureReason: 'ScanNotReadable',
    });
    expect(doc.allFailureReasons).toEqual([{ reason: 'ScanNotReadable', description: expect.any(String) }]);
  });

  it('unknown document: 404', async () => {
    expectCode(await h.api('GET', `/documents/${crypto.randomUUID()}`), 404, 'NotFound');
  });

  it('the customer’s list: {_links, _embedded.documents, total}, newest first', async () => {
    const id = await inDocument();
    const first = idOf((await h.upload(id, 'one.jpg')).headers.location);
    const second = idOf((await h.upload(id, 'two.jpg')).headers.location);
    const res = await h.api('GET', `/customers/${id}/documents`);
    expect(res.status).toBe(200);
    expect(res.json.total).toBe(2);
    expect(res.json._embedded.documents.map((d: { id: string }) => d.id)).toEqual([second, first]);
    expect(res.json._links.self.href).toBe(`${h.base}/customers/${id}/documents`);
    expectCode(await h.api('GET', `/customers/${crypto.randomUUID()}/documents`), 404, 'NotFound');
  });
});

describe('review after the configured delay, outcome by file name', () => {
  it('nothing happens before the delay; the review runs when it falls due', async () => {
    const id = await inDocument();
    const res = await h.upload(id, 'passport.jpg');
    await h.sandbox.advanceClock(29);
    expect((await document(res)).status).toBe('pending');
    await h.sandbox.advanceClock(1);
    expect((await document(res)).status).toBe('reviewed');
  });

  it('contains "fraud" → customer suspended (event customer_suspended)', async () => {
    const id = await inDocument();
    const res = await h.upload(id, 'my-FRAUD-scan.jpg');
    await h.sandbox.advanceClock(30);
    expect((await h.customer(id)).json.status).toBe('suspended');
    expect((await document(res)).documentVerificationStatus).toBe('rejected');
    expect((await h.topicsOf(id)).at(-1)).toBe('customer_suspended');
  });

  it('contains "fail" → rejected (failed, then needed); status stays document', async () => {
    const id = await inDocument();
    await h.upload(id, 'Failed_photo.png', 'license', png());
    await h.sandbox.advanceClock(30);
    expect((await h.customer(id)).json.status).toBe('document');
    expect((await h.topicsOf(id)).slice(-2)).toEqual([
      'customer_verification_document_failed',
      'customer_verification_document_needed',
    ]);
  });

  it('otherwise accepted (approved, then customer_verified)', async () => {
    const id = await inDocument();
    const res = await h.upload(id, 'license.jpg', 'license');
    await h.sandbox.advanceClock(30);
    expect((await document(res)).documentVerificationStatus).toBe('accepted');
    expect((await h.customer(id)).json.status).toBe('verified');
    expect((await h.topicsOf(id)).slice(-2)).toEqual([
      'customer_verification_document_approved',
      'customer_verified',
    ]);
  });

  it('a later review does not move a customer who already left document', async () => {
    const id = await inDocument();
    await h.upload(id, 'good.jpg');
    await h.upload(id, 'fraud.jpg');
    await h.sandbox.advanceClock(30);
    expect((await h.customer(id)).json.status).toBe('verified');
  });
});
