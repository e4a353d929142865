import type { QueueRow, QueueWindow } from '#contract/queue.ts';
import type { Journal, JournalCustomer } from '#main/data/journal/index.ts';

/** A customer as the queue shows it: the row every screen and every `customer.updated` event carries. */
export function queueRowOf(customer: JournalCustomer): QueueRow {
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

/** The first line of a note, as the queue's Note column shows it. */
export const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

/** A window's rows with the first line of each case's latest note (one read for the whole window). */
export async function withLatestNotes(journal: Journal, window: QueueWindow): Promise<QueueWindow> {
  const latest = await journal.notes.latest(window.rows.map((row) => row.id));
  if (Object.keys(latest).length === 0) return window;
  return {
    ...window,
    rows: window.rows.map((row) => {
      const note = latest[row.id];
      return note ? { ...row, latestNote: firstLine(note.text) } : row;
    }),
  };
}
