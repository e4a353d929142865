// The interface of the reviewer's queue: windows of rows, live counts, and the cases gone overdue.
import type { QueueWindow, QueueWindowInput } from '#contract/queue.ts';
import type { AgeingSection } from '#contract/queue-view.ts';

/** The time before which a case of each section is overdue (now minus its target); absent: no target. */
export type DueBefore = Partial<Record<AgeingSection, string>>;

export interface OverdueCase {
  id: string;
  name: string;
  section: AgeingSection;
  statusSince: string;
}

/**
 * The cases a claim filter leaves (team mode's "Mine", "Unclaimed", "by reviewer"): those a reviewer holds,
 * those nobody holds, or none at all. Drafts are no one's case: any claim filter leaves them out.
 */
export type ClaimScope = { holder: string } | { unclaimed: true } | { nothing: true };

/** Cases per holder (null: nobody) in each section with an ageing target: waiting there, and overdue. */
export interface HolderCounts {
  holder: string | null;
  waiting: Record<AgeingSection, number>;
  overdue: Record<AgeingSection, number>;
  /** Every case the holder holds, in any section (0 for nobody). */
  held: number;
}

export interface QueueRepository {
  /** One screen of a section (or of all of them), in the order asked for, with the counts beside each. */
  window(input: QueueWindowInput, due?: DueBefore, claim?: ClaimScope): Promise<QueueWindow>;
  /** The queue's work by who holds it: a row per holder with a case, and one for the cases nobody holds. */
  holderCounts(due: DueBefore): Promise<HolderCounts[]>;
  /** Overdue cases per section, counted up to COUNT_CAP + 1. */
  overdueCounts(due: DueBefore): Promise<Record<AgeingSection, number>>;
  /** Cases whose due time fell in [from, until): they went overdue in that span (oldest first, at most `limit`). */
  wentOverdue(from: DueBefore, until: DueBefore, limit: number): Promise<OverdueCase[]>;
}
