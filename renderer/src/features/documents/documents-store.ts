import { create } from 'zustand';
import {
  checkCustomerStatus,
  checkPendingRoom,
  type DocumentType,
  UPLOAD_PROBLEMS,
  type UploadProblem,
} from '#contract/document-rules.ts';
import type { DocumentList, UploadedDocument } from '#contract/documents.ts';
import { VettedError } from '#contract/errors.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';
import { inspectFile, readBase64 } from './file-reading.ts';

export type CardState = 'ready' | 'uploading' | 'uploaded' | 'failed';

export interface Problem {
  code: string;
  message: string;
}

/** A file the reviewer dropped or chose: kept until they remove it, whatever happens to its upload. */
export interface FileCard {
  key: string;
  customerId: string;
  file: File;
  /** A blob: URL of the file, for images only. */
  previewUrl: string | null;
  /** Wrong type or too large, found when it was dropped: this file cannot be uploaded. */
  fileProblem: UploadProblem | null;
  documentType: DocumentType | '';
  state: CardState;
  /** Bytes main has handed to the service; null until the first report. */
  progress: { sent: number; total: number } | null;
  /** The last attempt's id, sent as its Idempotency-Key. */
  uploadId: string | null;
  /** The type the last attempt sent: the same key may be re-sent only with the same body. */
  sentType: DocumentType | null;
  /** Why the last attempt (or the checks before it) failed. */
  problem: Problem | null;
  /** The document the service created, with its link. */
  document: UploadedDocument | null;
}

export interface CustomerDocuments {
  list: DocumentList | null;
  problem: string | null;
}

interface DocumentsState {
  byCustomer: Record<string, CustomerDocuments>;
  cards: FileCard[];
  /**
   * A customer's documents are on screen: loaded now, and again on every change main pushes for it
   * (a webhook, a refresh). Returns the function that stops following.
   */
  follow(customerId: string): () => void;
  /** Refreshes the customer and its documents from the service. */
  load(customerId: string): Promise<void>;
  addFiles(customerId: string, files: readonly File[]): Promise<void>;
  chooseType(key: string, documentType: DocumentType | ''): void;
  upload(key: string): Promise<void>;
  cancel(key: string): Promise<void>;
  remove(key: string): void;
}

/** After these the service may have the document already: a retry re-sends the same key, never a second one. */
const OUTCOME_UNKNOWN = new Set(['UploadOutcomeUnknown', 'UploadCancelled', 'Disconnected']);

function problemOf(error: unknown): Problem {
  if (error instanceof VettedError) {
    const details = Object.values(error.fields).filter((text) => text !== error.message);
    return { code: error.code, message: [error.message, ...details].join(' ') };
  }
  return { code: 'Unknown', message: error instanceof Error ? error.message : String(error) };
}

/** Uploads of this customer's that the service's list does not show yet. */
function onTheirWay(state: DocumentsState, card: FileCard, list: DocumentList): number {
  const listed = new Set(list.documents.map((document) => document.id));
  return state.cards.filter(
    (other) =>
      other.key !== card.key &&
      other.customerId === card.customerId &&
      (other.state === 'uploading' ||
        (other.state === 'uploaded' && other.document !== null && !listed.has(other.document.id))),
  ).length;
}

/** The checks before an upload; main makes them again, with the service's word on status and count. */
function checkBeforeUpload(state: DocumentsState, card: FileCard): Problem | null {
  if (card.fileProblem) return card.fileProblem;
  if (!card.documentType) return { code: 'NoDocumentType', message: UPLOAD_PROBLEMS.NoDocumentType };
  const list = state.byCustomer[card.customerId]?.list;
  if (!list) return null;
  return (
    checkCustomerStatus(list.customerStatus) ?? checkPendingRoom(list.pending + onTheirWay(state, card, list))
  );
}

export const useDocumentsStore = create<DocumentsState>((set, get) => {
  // Answers to an older load of a customer's documents are dropped when a newer one was asked for.
  const latestLoad = new Map<string, number>();
  let loads = 0;
  /** Customers on screen, each with how many panels show it. */
  const followed = new Map<string, number>();
  const listen = sharedWatch(() => [
    api.on('customer.updated', (row) => {
      if (followed.has(row.id)) void get().load(row.id);
    }),
    api.on('upload.progress', ({ uploadId, sent, total }) =>
      set((state) => ({
        cards: state.cards.map((card) =>
          card.uploadId === uploadId && card.state === 'uploading'
            ? { ...card, progress: { sent, total } }
            : card,
        ),
      })),
    ),
  ]);
  const update = (key: string, patch: Partial<FileCard>) =>
    set((state) => ({ cards: state.cards.map((card) => (card.key === key ? { ...card, ...patch } : card)) }));
  const cardOf = (key: string) => get().cards.find((card) => card.key === key);
  const setEntry = (customerId: string, patch: Partial<CustomerDocuments>) =>
    set((state) => {
      const entry = state.byCustomer[customerId] ?? { list: null, problem: null };
      return { byCustomer: { ...state.byCustomer, [customerId]: { ...entry, ...patch } } };
    });

  return {
    byCustomer: {},
    cards: [],

    follow(customerId) {
      followed.set(customerId, (followed.get(customerId) ?? 0) + 1);
      const stop = listen();
      void get().load(customerId);
      return () => {
        const left = (followed.get(customerId) ?? 1) - 1;
        if (left > 0) followed.set(customerId, left);
        else followed.delete(customerId);
        stop();
      };
    },

    async load(customerId) {
      const ticket = ++loads;
      latestLoad.set(customerId, ticket);
      try {
        const list = await api.documents.list({ customerId });
        if (latestLoad.get(customerId) === ticket) setEntry(customerId, { list, problem: null });
      } catch (error) {
        if (latestLoad.get(customerId) !== ticket) return;
        // The last list stays on screen; the next poll or event tries again.
        setEntry(customerId, { problem: `The documents could not be loaded: ${problemOf(error).message}` });
      }
    },

    async addFiles(customerId, files) {
      const cards = await Promise.all(
        files.map(async (file): Promise<FileCard> => {
          let fileProblem: UploadProblem | null;
          try {
            fileProblem = await inspectFile(file);
          } catch {
            fileProblem = { code: 'InvalidFileType', message: 'This file could not be read.' };
          }
          return {
            key: crypto.randomUUID(),
            customerId,
            file,
            previewUrl: fileProblem?.code === 'InvalidFileType' ? null : URL.createObjectURL(file),
            fileProblem,
            documentType: '',
            state: 'ready',
            progress: null,
            uploadId: null,
            sentType: null,
            problem: null,
            document: null,
          };
        }),
      );
      set((state) => ({ cards: [...state.cards, ...cards] }));
    },

    chooseType(key, documentType) {
      update(key, { documentType });
    },

    async upload(key) {
      const card = cardOf(key);
      if (!card || card.state === 'uploading' || card.state === 'uploaded') return;
      const problem = checkBeforeUpload(get(), card);
      if (problem || !card.documentType) {
        update(key, { state: 'failed', problem });
        return;
      }
      const { documentType, customerId } = card;
      const resend =
        card.uploadId !== null &&
        card.sentType === documentType &&
        OUTCOME_UNKNOWN.has(card.problem?.code ?? '');
      const uploadId = resend && card.uploadId ? card.uploadId : crypto.randomUUID();
      update(key, { state: 'uploading', uploadId, sentType: documentType, progress: null, problem: null });
      let bytesBase64: string;
      try {
        bytesBase64 = await readBase64(card.file);
      } catch {
        // Never sent: a later attempt starts afresh (its own key), and nothing waits for this one.
        update(key, {
          state: 'failed',
          uploadId: null,
          problem: {
            code: 'FileUnreadable',
            message: 'The file could not be read. Is it still where it was?',
          },
        });
        return;
      }
      try {
        const document = await api.documents.upload({
          customerId,
          uploadId,
          documentType,
          fileName: card.file.name,
          bytesBase64,
        });
        update(key, { state: 'uploaded', document, progress: null });
      } catch (error) {
        update(key, { state: 'failed', progress: null, problem: problemOf(error) });
      }
      void get().load(customerId);
    },

    async cancel(key) {
      const card = cardOf(key);
      if (card?.state !== 'uploading' || !card.uploadId) return;
      try {
        await api.documents.cancel({ uploadId: card.uploadId });
      } catch {
        // The upload runs on; its own answer says how it ended.
      }
    },

    remove(key) {
      const card = cardOf(key);
      if (!card || card.state === 'uploading') return;
      if (card.previewUrl) URL.revokeObjectURL(card.previewUrl);
      set((state) => ({ cards: state.cards.filter((other) => other.key !== key) }));
    },
  };
});
