import { rejectionReasonText } from '#contract/document-rules.ts';
import { DeskError } from '#contract/errors.ts';
import type { QueueRow } from '#contract/queue.ts';
import { isServiceId, unusableIdMessage } from '#contract/service-id.ts';
import type { Journal, JournalCustomer, Observation } from '#main/data/journal/index.ts';
import { type Document, isNotFound, type ServiceClient } from '#main/data/service/index.ts';
import { queueRowOf } from './queue-row.ts';

/**
 * Brings the journal in line with the service: GET the customer, record what changed, and say
 * so. The service's current state is the truth, whatever order events arrived in.
 */
export interface Reconciler {
  /** GET one customer (and, in `document`, its documents); a 404 marks it gone. */
  refresh(id: string, observation: Observation): Promise<JournalCustomer | undefined>;
  /**
   * The same, answering also the customer as the journal held it before: a caller that compares the two
   * (the event processor's status notice) needs no read of its own (one read of the team store less).
   */
  refreshed(
    id: string,
    observation: Observation,
  ): Promise<{ before: JournalCustomer | undefined; after: JournalCustomer | undefined }>;
  /** Refreshes every customer whose status may still change, `concurrency` at a time. */
  refreshAll(onProgress: (done: number, total: number) => void): Promise<{ done: number; failed: number }>;
}

export interface ReconcilerOptions {
  journal: Journal;
  client: () => ServiceClient;
  /** Told of every customer whose row changed. */
  onChange(row: QueueRow): void;
  concurrency?: number;
}

export const DEFAULT_RECONCILE_CONCURRENCY = 8;

/**
 * What a refresh writes is the service's own state, fetched again by the next refresh if a power cut takes
 * it (and WAL order takes the event's "processed" mark with it): no fsync blocking main for it.
 */
const LATER = { sync: 'later' } as const;

/** A queue row changes when anything the queue shows changes. */
const rowKey = (customer: JournalCustomer | undefined) =>
  customer ? JSON.stringify(queueRowOf(customer)) : '';

export function createReconciler(options: ReconcilerOptions): Reconciler {
  const { journal } = options;

  async function refreshed(id: string, observation: Observation) {
    // "Before" is what the write found under its own lock (no read of its own first: on a team store that
    // was one more round trip for every delivery).
    let before: JournalCustomer | undefined;
    let customer: JournalCustomer | undefined;
    try {
      const fetched = await options.client().customers.get(id);
      // Kept only under an id every channel can open again: else refused, in words naming it.
      if (!isServiceId(fetched.id))
        throw new DeskError('UnusableId', unusableIdMessage('customer', fetched.id));
      const upserted = await journal.transaction((tx) => tx.customers.upsert(fetched, observation), LATER);
      ({ before, customer } = upserted);
      if (customer.status === 'document') customer = await refreshDocuments(customer);
    } catch (error) {
      // Only the customer's own URL saying so: a token failure is never a verdict on the customer.
      if (!isNotFound(error)) throw error;
      before = await journal.customers.get(id);
      customer = await journal.transaction((tx) => tx.customers.markGone(id), LATER);
    }
    if (customer && rowKey(customer) !== rowKey(before)) options.onChange(queueRowOf(customer));
    return { before, after: customer };
  }

  async function refresh(id: string, observation: Observation): Promise<JournalCustomer | undefined> {
    return (await refreshed(id, observation)).after;
  }

  async function refreshDocuments(customer: JournalCustomer): Promise<JournalCustomer> {
    const documents = await options.client().documents.listForCustomer(customer.id);
    const summary = documentSummary(documents);
    return (
      (await journal.transaction((tx) => tx.customers.setDocuments(customer.id, summary), LATER)) ?? customer
    );
  }

  return {
    refresh,
    refreshed,
    async refreshAll(onProgress) {
      const ids = await journal.customers.toReconcile();
      let done = 0;
      let failed = 0;
      let next = 0;
      onProgress(0, ids.length);
      const worker = async () => {
        while (next < ids.length) {
          const id = ids[next++] as string;
          try {
            await refresh(id, { source: 'poll' });
          } catch {
            failed++;
          }
          onProgress(++done, ids.length);
        }
      };
      const workers = Math.min(options.concurrency ?? DEFAULT_RECONCILE_CONCURRENCY, ids.length);
      await Promise.all(Array.from({ length: workers }, worker));
      return { done, failed };
    },
  };
}

/** Pending reviews put a customer in "Document in review"; the newest rejection explains the row. */
export function documentSummary(documents: readonly Document[]): { pending: number; note: string | null } {
  const pending = documents.filter((document) => document.status === 'pending').length;
  const rejected = documents
    .filter((document) => document.documentVerificationStatus === 'rejected')
    .sort((a, b) => b.created.localeCompare(a.created))[0];
  const reason = rejected && rejectionReasonText(rejected);
  return { pending, note: pending === 0 && reason ? `Document rejected: ${reason}` : null };
}
