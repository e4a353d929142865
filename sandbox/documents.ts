import { createHash, randomUUID } from 'node:crypto';
import { MiB } from './body.ts';
import { type DueWork, isoTime } from './clock.ts';
import { enterStatus, requireCustomer } from './customers.ts';
import {
  type EmbeddedError,
  embeddedError,
  fileTooLarge,
  invalidResourceState,
  maxNumberOfResources,
  notFound,
  serviceError,
  validationError,
} from './errors.ts';
import { recordEvent } from './events.ts';
import type { FormPart } from './multipart.ts';
import type { FailureReason } from './profile-types.ts';
import { createdReply, halReply, type Reply, resourceLink } from './reply.ts';
import type { App, RequestContext, Route } from './types.ts';
import { urlOf } from './urls.ts';

/** Verification documents (service-facts.md §5): upload, read, and the sandbox's delayed review. */
export const DOCUMENT_TYPES = ['passport', 'license', 'idCard'] as const;
export const MAX_DOCUMENT_BYTES = 10 * MiB;
export const MAX_PENDING_DOCUMENTS = 4;
// Room for the documentType part, the boundaries and the part headers around a 10 MiB file.
const UPLOAD_BODY_LIMIT = MAX_DOCUMENT_BYTES + 64 * 1024;

interface DocumentRow extends Record<string, unknown> {
  id: string;
  customer_id: string;
  type: string;
  file_name: string;
  status: 'pending' | 'reviewed';
  verification_status: 'pending' | 'accepted' | 'rejected';
  failure_reason: FailureReason | null;
  created_ms: number;
}

/** `fraud` names a fraudulent document; `fail` an unreadable one; anything else passes. */
type ReviewOutcome = 'fraud' | 'fail' | 'accepted';

function outcomeOf(fileName: string): ReviewOutcome {
  const name = fileName.toLowerCase();
  if (name.includes('fraud')) return 'fraud';
  return name.includes('fail') ? 'fail' : 'accepted';
}

const FAILURE_REASONS: Record<Exclude<ReviewOutcome, 'accepted'>, FailureReason[]> = {
  fail: ['ScanNotReadable'],
  fraud: ['ScanNameMismatch', 'ScanDobMismatch'],
};

function documentResource(app: App, row: DocumentRow): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    _links: {
      self: resourceLink(urlOf(app, `/documents/${row.id}`), 'document'),
      customer: resourceLink(urlOf(app, `/customers/${row.customer_id}`), 'customer'),
    },
    id: row.id,
    type: row.type,
    status: row.status,
    documentVerificationStatus: row.verification_status,
    created: isoTime(row.created_ms),
  };
  if (row.verification_status === 'rejected' && row.failure_reason) {
    const reasons = FAILURE_REASONS[row.failure_reason === 'ScanNotReadable' ? 'fail' : 'fraud'];
    Object.assign(resource, app.profile.documentFailure(reasons));
  }
  return resource;
}

/** The image type by its first bytes, whatever the file is called. */
export function imageTypeOf(data: Buffer): 'image/jpeg' | 'image/png' | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.length >= png.length && png.every((byte, i) => data[i] === byte)) return 'image/png';
  return null;
}

function formErrors(documentType: FormPart | undefined, file: FormPart | undefined): EmbeddedError[] {
  const errors: EmbeddedError[] = [];
  const type = documentType?.data.toString('utf8').trim();
  if (!type) {
    errors.push(
      embeddedError({ path: '/documentType', code: 'Required', message: 'DocumentType required.' }),
    );
  } else if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) {
    errors.push(embeddedError({ path: '/documentType', code: 'Invalid', message: 'DocumentType invalid.' }));
  }
  if (!file || file.filename === undefined) {
    errors.push(embeddedError({ path: '/file', code: 'Required', message: 'File required.' }));
  }
  return errors;
}

function pendingCount(app: App, customerId: string): number {
  return (
    app.store.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM documents WHERE customer_id = ? AND status = 'pending'",
      customerId,
    )?.n ?? 0
  );
}

function uploadDocument(ctx: RequestContext): Reply {
  const { app } = ctx;
  const customer = requireCustomer(app.store, ctx.params.id!);
  if (customer.status !== 'document') throw invalidResourceState();
  const documentType = ctx.parts.find((part) => part.name === 'documentType');
  const file = ctx.parts.find((part) => part.name === 'file');
  const errors = formErrors(documentType, file);
  if (errors.length > 0 || !documentType || !file) throw validationError(errors);
  const mediaType = imageTypeOf(file.data);
  if (!mediaType) {
    throw serviceError(
      400,
      'InvalidFileType',
      'File type is not supported. Upload a .jpg, .jpeg or .png image.',
    );
  }
  if (file.data.length > MAX_DOCUMENT_BYTES) throw fileTooLarge();
  if (pendingCount(app, customer.id) >= MAX_PENDING_DOCUMENTS) {
    throw maxNumberOfResources(`At most ${MAX_PENDING_DOCUMENTS} documents may be pending review.`);
  }
  const id = randomUUID();
  const now = app.clock.now();
  app.store.transaction(() => {
    app.store.run(
      `INSERT INTO documents (id, customer_id, type, file_name, media_type, size, sha256, status,
         verification_status, created_ms, review_due_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 'pending', ?, ?)`,
      id,
      customer.id,
      documentType.data.toString('utf8').trim(),
      file.filename ?? '',
      mediaType,
      file.data.length,
      createHash('sha256').update(file.data).digest('hex'),
      now,
      now + app.reviewDelayMs,
    );
    recordEvent(app, {
      topic: 'customer_verification_document_uploaded',
      customerId: customer.id,
      documentId: id,
    });
  });
  app.scheduler.kick();
  return createdReply(urlOf(app, `/documents/${id}`));
}

function getDocument(ctx: RequestContext): Reply {
  const row = ctx.app.store.get<DocumentRow>('SELECT * FROM documents WHERE id = ?', ctx.params.id!);
  if (!row) throw notFound('Document not found.');
  return halReply(200, documentResource(ctx.app, row));
}

function listCustomerDocuments(ctx: RequestContext): Reply {
  const { app } = ctx;
  const customer = requireCustomer(app.store, ctx.params.id!);
  const rows = app.store.all<DocumentRow>(
    'SELECT * FROM documents WHERE customer_id = ? ORDER BY seq DESC',
    customer.id,
  );
  return halReply(200, {
    _links: { self: resourceLink(urlOf(app, `/customers/${customer.id}/documents`), 'document') },
    _embedded: { documents: rows.map((row) => documentResource(app, row)) },
    total: rows.length,
  });
}

/**
 * Applies a review. The customer moves only while still in `document`: a later document cannot
 * undo a suspension or re-verify a verified customer, though its own outcome is still reported.
 */
function review(app: App, document: DocumentRow): void {
  const outcome = outcomeOf(document.file_name);
  const customer = requireCustomer(app.store, document.customer_id);
  const inDocument = customer.status === 'document';
  const subject = { customerId: customer.id, documentId: document.id };
  app.store.run(
    `UPDATE documents SET status = 'reviewed', verification_status = ?, failure_reason = ?, reviewed_ms = ?
     WHERE id = ?`,
    outcome === 'accepted' ? 'accepted' : 'rejected',
    outcome === 'accepted' ? null : FAILURE_REASONS[outcome][0]!,
    app.clock.now(),
    document.id,
  );
  if (outcome === 'accepted') {
    recordEvent(app, { ...subject, topic: 'customer_verification_document_approved' });
    if (inDocument) enterStatus(app, customer.id, 'verified');
  } else if (outcome === 'fail') {
    recordEvent(app, { ...subject, topic: 'customer_verification_document_failed' });
    if (inDocument)
      recordEvent(app, { customerId: customer.id, topic: 'customer_verification_document_needed' });
  } else if (inDocument) {
    enterStatus(app, customer.id, 'suspended');
  } else {
    recordEvent(app, { ...subject, topic: 'customer_verification_document_failed' });
  }
}

/** Document reviews as due work on the sandbox clock. */
export function documentReviews(app: App): DueWork {
  return {
    nextDueAt(): number | null {
      return (
        app.store.get<{ due: number | null }>(
          "SELECT MIN(review_due_ms) AS due FROM documents WHERE status = 'pending'",
        )?.due ?? null
      );
    },
    async runDue(): Promise<void> {
      const due = app.store.all<DocumentRow>(
        "SELECT * FROM documents WHERE status = 'pending' AND review_due_ms <= ? ORDER BY review_due_ms, seq",
        app.clock.now(),
      );
      for (const document of due) app.store.transaction(() => review(app, document));
    },
  };
}

export function documentRoutes(): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/customers/{id}/documents',
      body: 'multipart',
      bodyLimit: UPLOAD_BODY_LIMIT,
      handle: uploadDocument,
    },
    { method: 'GET', pattern: '/customers/{id}/documents', handle: listCustomerDocuments },
    { method: 'GET', pattern: '/documents/{id}', handle: getDocument },
  ];
}
