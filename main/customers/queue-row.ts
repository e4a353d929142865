import type { QueueRow } from '../../contract/queue.ts';
import type { JournalCustomer } from '../journal/index.ts';

/** A customer as the queue shows it: the row every screen and every `customer.updated` event carries. */
export function toQueueRow(customer: JournalCustomer): QueueRow {
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    status: customer.status,
    section: customer.section,
    statusSince: customer.statusSince,
    gone: customer.goneAt !== null,
    note: customer.note,
    changedAt: customer.changedAt,
  };
}
