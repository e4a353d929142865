// The interface of the reviewer's queue: windows of rows, live counts, and the cases gone overdue.
import type { QueueWindow, QueueWindowInput } from '../../../contract/queue.ts';
import type { AgeingSection } from '../../../contract/queue-view.ts';

/** The time before which a case of each section is overdue (now minus its target); absent: no target. */
export type DueBefore = Partial<Record<AgeingSection, string>>;

export interface OverdueCase {
  id: string;
  name: string;
  section: AgeingSection;
  statusSince: string;
}

export interface QueueRepository {
  /** One screen of a section (or of all of them), in the order asked for, with the counts beside each. */
  window(input: QueueWindowInput, due?: DueBefore): Promise<QueueWindow>;
  /** Overdue cases per section, counted up to COUNT_CAP + 1. */
  overdueCounts(due: DueBefore): Promise<Record<AgeingSection, number>>;
  /** Cases whose due time fell in [from, until): they went overdue in that span (oldest first, at most `limit`). */
  wentOverdue(from: DueBefore, until: DueBefore, limit: number): Promise<OverdueCase[]>;
}
