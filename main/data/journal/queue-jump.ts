// Where the n-th row of a section (longest waiting first) starts, from the day and hour counts the
// triggers keep (migrations/07-queue-orders.ts): a jump to any place reads a few dozen count rows and then
// skips at most an hour's customers, instead of counting every row before it.
import type { Section } from '#contract/queue.ts';
import type { Statements } from './db.ts';

export interface JumpStart {
  /** A prefix of `status_since` (an hour): the rows from here on hold the n-th. */
  from: string;
  /** Customers before `from` in this section. */
  before: number;
}

/** Below this offset, skipping rows one by one is cheaper than reading counts. */
export const JUMP_THRESHOLD = 500;

export function jumpStart(
  sql: Statements,
  section: Exclude<Section, 'drafts'> | 'all',
  rank: number,
): JumpStart | null {
  const key = section === 'all' ? '*' : section;
  const day = find(
    sql.all<{ at: string; n: number }>(
      'SELECT day AS at, n FROM queue_days WHERE section = :key ORDER BY day',
      { key },
    ),
    rank,
  );
  if (!day) return null;
  const hour = find(
    sql.all<{ at: string; n: number }>(
      `SELECT hour AS at, n FROM queue_hours WHERE section = :key AND hour >= :day AND hour < :next ORDER BY hour`,
      { key, day: day.at, next: `${day.at}~` },
    ),
    rank - day.before,
  );
  if (!hour) return null;
  return { from: hour.at, before: day.before + hour.before };
}

/** The bucket holding the row of this rank, and the rows in the buckets before it. */
function find(buckets: { at: string; n: number }[], rank: number): { at: string; before: number } | null {
  let before = 0;
  for (const bucket of buckets) {
    if (before + bucket.n > rank) return { at: bucket.at, before };
    before += bucket.n;
  }
  return null;
}
