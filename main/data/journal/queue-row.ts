import type { QueueRow, Section } from '#contract/queue.ts';

/** A row of a queue window as SQL gives it: customers and drafts alike, so "all" merges both in one walk. */
export interface QueueRowRecord {
  id: string;
  name: string;
  email: string;
  status: string;
  section: Section;
  status_since: string;
  changed_at: string;
  gone: number;
  note: string | null;
  /** Who holds the case (team mode's claims); null for nobody, and for drafts. */
  claimed_by: string | null;
}

export function queueRowFromRecord(row: QueueRowRecord): QueueRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    section: row.section,
    statusSince: row.status_since,
    changedAt: row.changed_at || row.status_since,
    gone: row.gone === 1,
    note: row.note,
    ...(row.claimed_by ? { claimedBy: row.claimed_by } : {}),
  };
}
