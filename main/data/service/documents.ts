import {
  type Api,
  createdResource,
  type ResourceRef,
  readAs,
  resourcePath,
  type WriteOptions,
} from './api.ts';
import { type Document, documentPageSchema, documentSchema } from './hal.ts';
import { multipartBody } from './multipart.ts';

export interface DocumentUpload {
  /** `passport`, `license`, `idCard`. */
  documentType: string;
  fileName: string;
  /** `image/jpeg` or `image/png`. */
  contentType: string;
  bytes: Uint8Array;
}

export interface UploadOptions extends WriteOptions {
  /** Bytes of the whole form taken by the transport; starts again from 0 if the upload is re-sent. */
  onProgress?: (sent: number, total: number) => void;
}

export interface DocumentsApi {
  upload(customerId: string, doc: DocumentUpload, opts?: UploadOptions): Promise<{ url: string; id: string }>;
  get(ref: ResourceRef): Promise<Document>;
  listForCustomer(customerId: string): Promise<Document[]>;
}

export function documentsApi(api: Api): DocumentsApi {
  return {
    async upload(customerId, doc, opts = {}) {
      const { onProgress, ...write } = opts;
      const form = multipartBody(
        { documentType: doc.documentType },
        { name: 'file', fileName: doc.fileName, contentType: doc.contentType, bytes: doc.bytes },
      );
      const headers = {
        'Content-Type': form.contentType,
        'Content-Length': String(form.length),
        'Cache-Control': 'no-cache',
      };
      const path = `${resourcePath('customers', customerId)}/documents`;
      const res = await api({
        method: 'POST',
        path,
        body: { headers, create: () => form.stream(onProgress) },
        ...write,
      });
      return createdResource(res);
    },
    async get(ref) {
      return readAs(
        documentSchema,
        await api({ method: 'GET', path: resourcePath('documents', ref) }),
        'document',
      );
    },
    async listForCustomer(customerId) {
      const path = `${resourcePath('customers', customerId)}/documents`;
      return readAs(documentPageSchema, await api({ method: 'GET', path }), 'document list')._embedded
        .documents;
    },
  };
}
