import { z } from 'zod';
import { DOCUMENT_TYPES, MAX_DOCUMENT_BYTES, UPLOAD_PROBLEMS } from './document-rules.ts';
import { ServiceCustomerIdSchema } from './service-id.ts';

/** ID documents of a customer in `document`: channels and pushed events. */

export const DocumentTypeSchema = z.enum(DOCUMENT_TYPES);

/** Why the service rejected a document: its code as sent, and in plain words. */
export const FailureReasonSchema = z.object({
  code: z.string(),
  text: z.string(),
  /** The service's own description, when it sent one. */
  description: z.string().nullable(),
});
export type FailureReason = z.infer<typeof FailureReasonSchema>;

export const CustomerDocumentSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** `passport`, `license`, `idCard`, or whatever else the service reports. */
  type: z.string(),
  uploadedAt: z.string(),
  /** `pending`, `accepted`, `rejected`; an unknown state is passed on as it is. */
  review: z.string(),
  reasons: z.array(FailureReasonSchema),
});
export type CustomerDocument = z.infer<typeof CustomerDocumentSchema>;

export const DocumentListSchema = z.object({
  customerId: z.string(),
  /** The customer's status as the service answered just now. */
  customerStatus: z.string(),
  /** Newest first. */
  documents: z.array(CustomerDocumentSchema),
  /** Documents waiting for review. */
  pending: z.number().int().min(0),
});
export type DocumentList = z.infer<typeof DocumentListSchema>;

/** The longest base64 text of a file the service accepts; main checks the exact size once decoded. */
export const MAX_DOCUMENT_BASE64_LENGTH = Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4;

export const UploadInputSchema = z.strictObject({
  customerId: ServiceCustomerIdSchema,
  /** Chosen by the renderer; sent as the Idempotency-Key, and names the upload for progress and cancel. */
  uploadId: z.uuid(),
  documentType: DocumentTypeSchema,
  /** The name the reviewer's file has (the sandbox decides its review by it); never a path to open. */
  fileName: z.string().trim().min(1).max(255),
  /** The file's bytes: text survives both Electron IPC and browser mode's JSON. */
  bytesBase64: z.base64().max(MAX_DOCUMENT_BASE64_LENGTH, UPLOAD_PROBLEMS.FileTooLarge),
});
export type UploadInput = z.input<typeof UploadInputSchema>;

export const UploadedDocumentSchema = z.object({ id: z.string(), url: z.string() });
export type UploadedDocument = z.infer<typeof UploadedDocumentSchema>;

export const UploadProgressSchema = z.object({
  uploadId: z.string(),
  /** Bytes of the whole request taken so far; starts again from 0 if the request is re-sent. */
  sent: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type UploadProgress = z.infer<typeof UploadProgressSchema>;

export const documentChannels = {
  /** Refreshes the customer from the service, then lists its documents. */
  'documents.list': {
    input: z.strictObject({ customerId: ServiceCustomerIdSchema }),
    output: DocumentListSchema,
  },
  /** Checks the file and the customer again, then uploads; fails with a code of UPLOAD_PROBLEMS. */
  'documents.upload': { input: UploadInputSchema, output: UploadedDocumentSchema },
  /** Stops an upload, or keeps it from starting if it has not reached main yet. */
  'documents.cancel': {
    input: z.strictObject({ uploadId: z.uuid() }),
    output: z.object({ cancelled: z.boolean() }),
  },
} as const;

export const documentEvents = {
  'upload.progress': UploadProgressSchema,
} as const;

export type DocumentChannel = keyof typeof documentChannels;
