// When a case becomes overdue, as the queue's filters and counts ask it: the journal's side of the ageing
// targets, shared by the queue's overdue watch and the claims' counts per reviewer.
import { AGEING_SECTIONS, type AgeingTargets } from '#contract/queue-view.ts';
import type { DueBefore } from './repositories/queue.ts';

const HOUR_MS = 3_600_000;

/** For each section with a target: the time before which a case that entered it is overdue at `now`. */
export function dueBefore(targets: AgeingTargets, now: Date): DueBefore {
  return Object.fromEntries(
    AGEING_SECTIONS.map((section) => [
      section,
      new Date(now.getTime() - targets[section] * HOUR_MS).toISOString(),
    ]),
  );
}
