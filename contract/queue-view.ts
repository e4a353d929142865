import { z } from 'zod';

/**
 * How the reviewer orders and narrows the queue, and the ageing targets that mark a case overdue.
 * Kept beside queue.ts (sections and rows) so that the two can change independently.
 */
export const QUEUE_SORTS = ['waiting', 'lastChange', 'name'] as const;
export const QueueSortSchema = z.enum(QUEUE_SORTS);
export type QueueSort = z.infer<typeof QueueSortSchema>;

export const QUEUE_SORT_TITLES: Record<QueueSort, string> = {
  waiting: 'Waiting',
  lastChange: 'Last change',
  name: 'Name',
};

/** Days as the date inputs give them (`YYYY-MM-DD`); both ends are included. */
const Day = z.iso.date();

export const QueueFiltersSchema = z.strictObject({
  createdFrom: Day.optional(),
  createdTo: Day.optional(),
  changedFrom: Day.optional(),
  changedTo: Day.optional(),
  /** Customers with at least one reviewer's note. */
  hasNotes: z.boolean().optional(),
  /** Customers past the ageing target of their status. */
  overdue: z.boolean().optional(),
  /**
   * Team mode's claims: cases this reviewer holds ("Mine"), cases nobody holds ("Unclaimed"), or those a named
   * reviewer holds. Drafts are no one's case: any of these leaves them out. A solo desk holds every case.
   */
  claim: z
    .union([z.enum(['mine', 'unclaimed']), z.strictObject({ reviewer: z.string().min(1).max(63) })])
    .optional(),
});
export type QueueFilters = z.infer<typeof QueueFiltersSchema>;

/**
 * Where the previous page ended, in the order asked for: the next page starts right after it
 * (keyset pagination) instead of counting `offset` rows again.
 */
export const QueueAfterSchema = z.strictObject({ key: z.string(), id: z.string() });
export type QueueAfter = z.infer<typeof QueueAfterSchema>;

/** A count stops at this many: "1,000+" is all a reviewer needs, and counting further costs more with every customer. */
export const COUNT_CAP = 1_000;

/** The statuses that have an ageing target (a section of work waiting on someone). */
export const AGEING_SECTIONS = ['retry', 'document', 'review'] as const;
export type AgeingSection = (typeof AGEING_SECTIONS)[number];

/** Hours a case may wait in a section before it is overdue. */
export const AgeingTargetsSchema = z.strictObject({
  retry: z
    .number()
    .int()
    .min(1)
    .max(24 * 365),
  document: z
    .number()
    .int()
    .min(1)
    .max(24 * 365),
  review: z
    .number()
    .int()
    .min(1)
    .max(24 * 365),
});
export type AgeingTargets = z.infer<typeof AgeingTargetsSchema>;

export const DEFAULT_AGEING_TARGETS: Readonly<AgeingTargets> = Object.freeze({
  retry: 24,
  document: 48,
  review: 72,
});

/** Overdue cases per section (capped at COUNT_CAP + 1), with the targets they were measured against. */
export const OverdueSchema = z.object({
  counts: z.record(z.enum(AGEING_SECTIONS), z.number().int()),
  targets: AgeingTargetsSchema,
  at: z.iso.datetime(),
});
export type Overdue = z.infer<typeof OverdueSchema>;

/** Whether a case that entered its section at `since` is past its target at `now`. */
export function isOverdue(
  section: string,
  since: string,
  now: number,
  targets: AgeingTargets | null | undefined,
): boolean {
  if (!targets || !(AGEING_SECTIONS as readonly string[]).includes(section)) return false;
  const hours = targets[section as AgeingSection];
  return now - Date.parse(since) >= hours * 3_600_000;
}

/** The queue's own channels (queue.window stays with the queue's rows in channels.ts). */
export const queueViewChannels = {
  /** Overdue cases per section now, by main's clock. */
  'queue.overdue': { input: z.undefined(), output: OverdueSchema },
} as const;

export const queueViewEvents = {
  /** The overdue counts changed (a case went overdue, a target changed). */
  'queue.overdue': OverdueSchema,
} as const;
