import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentList } from '#contract/documents.ts';
import { deferred, fakeApi, installFresh, settle } from '#test/support/renderer/fake-api.ts';
import { queueRow } from '#test/support/renderer/queue-rows.ts';

const LIST: DocumentList = { customerId: 'c1', customerStatus: 'document', documents: [], pending: 0 };

/** The smallest file that passes for a JPEG: its start and end markers. */
const jpeg = () => {
  const bytes = new Uint8Array(64);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  bytes.set([0xff, 0xd9], 62);
  return new File([bytes], 'passport.jpg', { type: 'image/jpeg' });
};

/** The DOM's FileReader, as much of it as the store uses: Node has none. */
class FakeFileReader {
  result: string | null = null;
  error = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readAsDataURL(file: Blob) {
    void file.arrayBuffer().then((buffer) => {
      this.result = `data:image/jpeg;base64,${btoa(String.fromCharCode(...new Uint8Array(buffer)))}`;
      this.onload?.();
    });
  }
}

async function documents() {
  const list = vi.fn(async () => LIST);
  const upload = vi.fn(async (_input: { uploadId: string; customerId: string; documentType: string }) => ({
    id: 'doc-1',
    url: 'https://sandbox.example/documents/doc-1',
  }));
  const fake = fakeApi({ documents: { list, upload, cancel: vi.fn(async () => ({})) } });
  await installFresh(fake);
  const { useDocumentsStore } = await import('#renderer/features/documents/documents-store.ts');
  return { fake, list, upload, store: useDocumentsStore };
}

describe('documents store', () => {
  beforeEach(() => vi.stubGlobal('FileReader', FakeFileReader));
  afterEach(() => vi.unstubAllGlobals());

  it('follows a customer on screen: loads it, and again on changes main pushes for it only', async () => {
    const { fake, list, store } = await documents();
    const stop = store.getState().follow('c1');
    await settle();
    expect(store.getState().byCustomer.c1?.list).toEqual(LIST);
    fake.push('customer.updated', queueRow('c2', 'verified', 1));
    fake.push('customer.updated', queueRow('c1', 'review', 1));
    expect(list).toHaveBeenCalledTimes(2);
    stop();
    expect(fake.listeners('customer.updated')).toBe(0);
    expect(fake.listeners('upload.progress')).toBe(0);
  });

  it('uploads a dropped file with its type, showing main’s progress', async () => {
    const { fake, upload, store } = await documents();
    const stop = store.getState().follow('c1');
    await settle();
    await store.getState().addFiles('c1', [jpeg()]);
    const [card] = store.getState().cards;
    if (!card) throw new Error('no card');
    expect(card.fileProblem).toBeNull();

    const answer = deferred<{ id: string; url: string }>();
    upload.mockImplementationOnce(() => answer.promise);
    store.getState().chooseType(card.key, 'passport');
    const uploading = store.getState().upload(card.key);
    await vi.waitFor(() => expect(upload).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    const uploadId = store.getState().cards[0]?.uploadId ?? '';
    fake.push('upload.progress', { uploadId, sent: 10, total: 64 });
    expect(store.getState().cards[0]?.progress).toEqual({ sent: 10, total: 64 });
    answer.resolve({ id: 'doc-1', url: 'u' });
    await uploading;
    expect(store.getState().cards[0]?.state).toBe('uploaded');
    expect(upload.mock.calls[0]?.[0]).toMatchObject({ customerId: 'c1', documentType: 'passport' });
    stop();
  });

  it('re-sends the same key after an upload whose outcome is unknown', async () => {
    const { upload, store } = await documents();
    await store.getState().load('c1');
    await store.getState().addFiles('c1', [jpeg()]);
    const key = store.getState().cards[0]?.key ?? '';
    store.getState().chooseType(key, 'passport');
    // The store's own copy of the class: the modules were loaded afresh for this test.
    const { VettedError } = await import('#contract/errors.ts');
    upload.mockRejectedValueOnce(new VettedError({ code: 'UploadOutcomeUnknown', message: 'Unknown.' }));
    await store.getState().upload(key);
    expect(store.getState().cards[0]?.state).toBe('failed');
    await store.getState().upload(key);
    const [first, second] = upload.mock.calls.map(([input]) => input);
    expect(second?.uploadId).toBe(first?.uploadId);
  });

  it('refuses a file without a document type before anything is sent', async () => {
    const { upload, store } = await documents();
    await store.getState().addFiles('c1', [jpeg()]);
    await store.getState().upload(store.getState().cards[0]?.key ?? '');
    expect(store.getState().cards[0]?.problem?.code).toBe('NoDocumentType');
    expect(upload).not.toHaveBeenCalled();
  });
});
