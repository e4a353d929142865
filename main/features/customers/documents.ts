import {
  checkCustomerStatus,
  checkDocumentFile,
  checkPendingRoom,
  failureReasonText,
  SNIFF_BYTES,
  sniffImageType,
  type UploadProblem,
} from '#contract/document-rules.ts';
import type {
  CustomerDocument,
  DocumentChannel,
  DocumentList,
  UploadedDocument,
  UploadInput,
} from '#contract/documents.ts';
import { DeskError } from '#contract/errors.ts';
import { refusal } from '#main/data/failures.ts';
import type { JournalCustomer } from '#main/data/journal/index.ts';
import { type Document, ServiceError } from '#main/data/service/index.ts';
import { describeError } from '#main/ground/log/logger.ts';
import type { Handlers } from '#main/ground/serve.ts';
import { documentSummary } from '#main/sync/reconcile/reconciler.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Claims } from '../team-interfaces/claims.ts';
import { customerActions } from './actions.ts';
import { uploadFailure, uploadProblem } from './upload-failure.ts';

// Upload ids remembered after the fact (cancels that came first, uploads that ended), by count:
// enough for any reviewer, bounded against a renderer gone wrong.
const IDS_KEPT = 64;

/** A set that forgets its oldest entries beyond `IDS_KEPT`. */
function recentIds() {
  const ids = new Set<string>();
  return {
    add(id: string) {
      ids.add(id);
      if (ids.size > IDS_KEPT) ids.delete(ids.values().next().value as string);
    },
    has: (id: string) => ids.has(id),
    delete: (id: string) => ids.delete(id),
  };
}

interface Upload {
  customerId: string;
  controller: AbortController;
  /** Passed the checks and on its way: counts as pending for this customer's other uploads. */
  admitted: boolean;
}

const refused = ({ code, message }: UploadProblem) => new DeskError(code, message);

/** The uploads in flight and those remembered, with what the channels work with. */
interface DocumentsDesk {
  context: DeskContext;
  claims: Pick<Claims, 'beforeChange'>;
  uploads: Map<string, Upload>;
  // A cancel may overtake its upload (the renderer is still reading the file), or come just after it ended.
  earlyCancels: ReturnType<typeof recentIds>;
  ended: ReturnType<typeof recentIds>;
}

const client = ({ context }: DocumentsDesk) => context.connection().client();

async function knownCustomer({ context }: DocumentsDesk, id: string): Promise<JournalCustomer> {
  const customer = await context.journal.customers.get(id);
  if (!customer) throw refusal.unknownCustomer();
  return customer;
}

/** The customer as the service has it now; the journal (and the queue) follow. */
async function refreshed({ context }: DocumentsDesk, id: string): Promise<JournalCustomer> {
  const customer = await context.reconciler.refresh(id, { source: 'poll' });
  if (!customer || customer.goneAt) throw refusal.customerGone();
  return customer;
}

/** Status and room for one more, from the service; other uploads in flight count as pending. */
async function admit(desk: DocumentsDesk, input: UploadInput, upload: Upload): Promise<void> {
  const customer = await refreshed(desk, input.customerId);
  const statusProblem = checkCustomerStatus(customer.status);
  if (statusProblem) throw refused(statusProblem);
  // In `document`, but the service's links (as just fetched) do not ask for one: nothing is sent.
  const { upload: offered } = customerActions(customer);
  if (!offered.allowed) throw refusal.notOffered(offered.reason);
  const inFlight = [...desk.uploads.values()].filter(
    (other) => other !== upload && other.admitted && other.customerId === input.customerId,
  ).length;
  const roomProblem = checkPendingRoom(customer.pendingDocuments + inFlight);
  if (roomProblem) throw refused(roomProblem);
  upload.controller.signal.throwIfAborted();
  upload.admitted = true;
}

async function send(desk: DocumentsDesk, input: UploadInput, upload: Upload): Promise<UploadedDocument> {
  upload.controller.signal.throwIfAborted();
  const bytes = Buffer.from(input.bytesBase64, 'base64');
  const fileProblem = checkDocumentFile({ size: bytes.byteLength, head: bytes.subarray(0, SNIFF_BYTES) });
  if (fileProblem) throw refused(fileProblem);
  await admit(desk, input, upload);
  const { uploadId } = input;
  const created = await client(desk).documents.upload(
    input.customerId,
    {
      documentType: input.documentType,
      fileName: input.fileName,
      contentType: sniffImageType(bytes) ?? 'application/octet-stream',
      bytes,
    },
    {
      idempotencyKey: uploadId,
      signal: upload.controller.signal,
      onProgress: (sent, total) => desk.context.events.emit('upload.progress', { uploadId, sent, total }),
    },
  );
  upload.admitted = false;
  return created;
}

/** What was sent stays viewable at this desk, encrypted like other personal data (the case panel). */
async function keepImage({ context }: DocumentsDesk, input: UploadInput, documentId: string): Promise<void> {
  const head = Buffer.from(input.bytesBase64.slice(0, 16), 'base64');
  await context.journal.documentImages.store({
    documentId,
    customerId: input.customerId,
    documentType: input.documentType,
    contentType: sniffImageType(head) ?? 'application/octet-stream',
    base64: input.bytesBase64,
  });
}

async function listDocuments(desk: DocumentsDesk, customerId: string): Promise<DocumentList> {
  // The customer's status comes from the journal, which events keep current: a GET of the customer
  // here (the open case reloads its documents on every event) raced the webhook's own refresh, and
  // when it won, the status change lost its notification and its cause in the timeline.
  const customer = await knownCustomer(desk, customerId);
  if (customer.goneAt) throw refusal.customerGone();
  const documents = await client(desk).documents.listForCustomer(customerId);
  return {
    customerId,
    customerStatus: customer.status,
    documents: documents.map(toCustomerDocument).sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt)),
    pending: documentSummary(documents).pending,
  };
}

/** Keeps the copy, audits, and refreshes the case once the service has the document. */
async function afterUploaded(desk: DocumentsDesk, input: UploadInput, created: UploadedDocument) {
  const { journal, reconciler, log } = desk.context;
  const { customerId } = input;
  // The upload stands whether or not its copy could be kept here.
  await keepImage(desk, input, created.id).catch((error: unknown) => {
    log.warn('keeping the uploaded image failed', { customerId, ...describeError(error) });
  });
  // The audit names the document, never the file: a file name may carry the customer's name.
  await journal.audit.record({
    action: 'document.upload',
    customerId,
    outcome: 'ok',
    detail: `${input.documentType} ${created.id}`,
  });
  await reconciler.refresh(customerId, { source: 'poll' }).catch((error: unknown) => {
    log.warn('refresh after upload failed', { customerId, ...describeError(error) });
  });
}

/** Audits a failed upload and returns what the renderer is told (the typed refusal, or the error as is). */
async function uploadFailed(desk: DocumentsDesk, input: UploadInput, upload: Upload, error: unknown) {
  const { customerId, uploadId } = input;
  const failure = uploadFailure(error, upload.controller.signal.aborted);
  await desk.context.journal.audit.record({
    action: 'document.upload',
    customerId,
    outcome: auditOutcome(failure),
    detail: failure?.code ?? (error instanceof ServiceError ? error.code : 'error'),
  });
  if (
    !failure ||
    failure.code === 'UnsupportedRequestContentType' ||
    failure.code === 'UploadOutcomeUnknown'
  ) {
    desk.context.log.warn('document upload failed', { customerId, uploadId, ...describeError(error) });
  }
  return failure ?? error;
}

async function uploadDocument(desk: DocumentsDesk, input: UploadInput): Promise<UploadedDocument> {
  const { uploadId, customerId } = input;
  await knownCustomer(desk, customerId);
  // Another reviewer's case is refused before anything is sent; nobody's becomes this reviewer's.
  await desk.claims.beforeChange(customerId);
  // Checked after the await: from here to `uploads.set` nothing else runs.
  if (desk.uploads.has(uploadId)) throw uploadProblem('UploadInProgress');
  desk.ended.delete(uploadId);
  const upload: Upload = { customerId, controller: new AbortController(), admitted: false };
  desk.uploads.set(uploadId, upload);
  if (desk.earlyCancels.delete(uploadId)) upload.controller.abort();
  try {
    const created = await send(desk, input, upload);
    await afterUploaded(desk, input, created);
    return created;
  } catch (error) {
    throw await uploadFailed(desk, input, upload, error);
  } finally {
    desk.uploads.delete(uploadId);
    desk.ended.add(uploadId);
  }
}

function cancelUpload({ uploads, ended, earlyCancels }: DocumentsDesk, uploadId: string) {
  const upload = uploads.get(uploadId);
  if (upload) {
    upload.controller.abort();
    return { cancelled: true };
  }
  // Too late for one that has ended: its answer stands, and a retry of it must not start cancelled.
  if (ended.has(uploadId)) return { cancelled: false };
  earlyCancels.add(uploadId);
  return { cancelled: true };
}

/** ID documents: upload (checked again here, whatever the renderer checked), follow the review. */
export function documentsFeature(
  context: DeskContext,
  options: { claims: Pick<Claims, 'beforeChange'> },
): Feature<DocumentChannel> {
  const desk: DocumentsDesk = {
    context,
    claims: options.claims,
    uploads: new Map(),
    earlyCancels: recentIds(),
    ended: recentIds(),
  };
  const handlers: Pick<Handlers, DocumentChannel> = {
    'documents.list': ({ customerId }) => listDocuments(desk, customerId),
    'documents.upload': (input) => uploadDocument(desk, input),
    'documents.cancel': ({ uploadId }) => cancelUpload(desk, uploadId),
  };
  return {
    handlers,
    close() {
      for (const upload of desk.uploads.values()) upload.controller.abort();
    },
  };
}

/** What the renderer shows of a document: reasons in words, the raw code kept beside them. */
export function toCustomerDocument(document: Document): CustomerDocument {
  const listed = document.allFailureReasons ?? [];
  const reasons = listed.map(({ reason, description }) => ({
    code: reason,
    text: failureReasonText(reason),
    description: description ?? null,
  }));
  const single = document.failureReason;
  if (single && !listed.some(({ reason }) => reason.toLowerCase() === single.toLowerCase())) {
    reasons.unshift({ code: single, text: failureReasonText(single), description: null });
  }
  return {
    id: document.id,
    url: document._links.self?.href ?? '',
    type: document.type,
    uploadedAt: document.created,
    review:
      document.documentVerificationStatus ?? (document.status === 'pending' ? 'pending' : document.status),
    reasons,
  };
}

function auditOutcome(failure: DeskError | undefined): string {
  if (failure?.code === 'UploadCancelled') return 'cancelled';
  if (!failure || failure.code === 'UploadOutcomeUnknown') return 'failed';
  return 'refused';
}
