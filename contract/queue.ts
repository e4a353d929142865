import { z } from 'zod';
import { QueueAfterSchema, QueueFiltersSchema, QueueSortSchema } from './queue-view.ts';

/**
 * The queue's sections. A customer's section follows from its status (and, in `document`,
 * whether a document is waiting for review); any status the service adds later lands in `other`
 * and is shown by name.
 */
export const SECTIONS = [
  'retry',
  'document',
  'review',
  'kba',
  'unverified',
  'verified',
  'suspended',
  'deactivated',
  'other',
  'drafts',
] as const;
export const SectionSchema = z.enum(SECTIONS);
export type Section = z.infer<typeof SectionSchema>;

export const SECTION_TITLES: Record<Section, string> = {
  retry: 'Needs retry',
  document: 'Needs document',
  review: 'Document in review',
  kba: 'Knowledge-based questions',
  unverified: 'Unverified',
  verified: 'Verified',
  suspended: 'Suspended',
  deactivated: 'Deactivated',
  other: 'Other',
  drafts: 'Drafts & outbox',
};

/**
 * The section of a customer, from the status the service reported. The journal keeps it on write
 * (main/data/journal/migrations.ts lists the sections too): a change here needs a migration.
 */
export function sectionOf(status: string, pendingDocuments = 0): Exclude<Section, 'drafts'> {
  switch (status) {
    case 'retry':
    case 'kba':
    case 'unverified':
    case 'verified':
    case 'suspended':
    case 'deactivated':
      return status;
    case 'document':
      return pendingDocuments > 0 ? 'review' : 'document';
    default:
      return 'other';
  }
}

export const QueueRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.string(),
  section: SectionSchema,
  /** When the customer entered its current status: the queue's order, longest-waiting first. */
  statusSince: z.iso.datetime(),
  /** The last time anything the queue shows changed (status, section, name, note, gone). */
  changedAt: z.iso.datetime().optional(),
  /** The service answered 404: shown, never deleted. */
  gone: z.boolean(),
  /** A line for the row, e.g. why the last document was rejected. */
  note: z.string().nullable(),
  /** The first line of the reviewer's latest note on the case, when it has one (the Note column). */
  latestNote: z.string().nullable().optional(),
  /**
   * Team mode: the reviewer holding the case ("Ana has this"). In `queue.window` rows, absent means nobody
   * holds it; `customer.updated` rows never carry it (claims move by `claims.changed`, contract/claims.ts).
   */
  claimedBy: z.string().optional(),
});
export type QueueRow = z.infer<typeof QueueRowSchema>;

export const QueueWindowInputSchema = z.strictObject({
  section: SectionSchema.or(z.literal('all')),
  search: z.string().max(200),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(200),
  sort: QueueSortSchema.optional(),
  filters: QueueFiltersSchema.optional(),
  /** The last row of the page before `offset`, when the renderer holds it: the page is read from there. */
  after: QueueAfterSchema.optional(),
});
/** As callers write it: `sort` defaults to waiting time, `filters` to none. */
export type QueueWindowInput = z.input<typeof QueueWindowInputSchema>;

export const QueueWindowSchema = z.object({
  rows: z.array(QueueRowSchema),
  /** Rows in this section matching the search: the scroll height. */
  total: z.number().int(),
  /** Rows per section matching the search: the live counts beside each section. */
  counts: z.record(SectionSchema, z.number().int()),
  /**
   * The search matched more than COUNT_CAP rows: `total` is COUNT_CAP + 1 ("1,000+") and the list holds
   * only that many; `counts` are lower bounds.
   */
  capped: z.boolean().optional(),
});
export type QueueWindow = z.infer<typeof QueueWindowSchema>;
