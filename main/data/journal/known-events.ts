import type { Statements } from './db.ts';
import { type Clock, isoTime } from './time.ts';

/**
 * The ids of recent events the journal holds, in memory: a redelivery is told apart without a log
 * record, a sync or a round through the group commit. Loaded at start, added to once an event is
 * durable, and bounded (the oldest forgotten first). Only a fast path: an id not found here still
 * goes to the journal, whose primary key decides, so forgetting one never records an event twice.
 */
export interface KnownEvents {
  readonly size: number;
  has(id: string): boolean;
  /** Events made durable (in the inbox log, or committed): the journal holds them, or will. */
  add(ids: readonly string[]): void;
  /** Counts a redelivery of each, on the caller's transaction; the rows of those found. */
  countDuplicates(ids: readonly string[]): Record<string, unknown>[];
}

// The service retries a delivery for 72 hours; a subscription resumed after a pause is redelivered
// later still, and the journal tells those apart as before. The bound keeps the set near 2 MB: a
// redelivery is mostly of a recent event (its 200 was lost), and memory must not grow with deliveries.
const RECENT_MS = 8 * 24 * 60 * 60 * 1000;
export const MAX_KNOWN_EVENTS = 20_000;

const COUNT_DUPLICATE = `UPDATE events SET duplicates_seen = duplicates_seen + 1 WHERE id = :id RETURNING *`;

export function createKnownEvents(sql: Statements, clock: Clock, max = MAX_KNOWN_EVENTS): KnownEvents {
  const ids = new Set<string>();
  const since = isoTime(new Date(clock().getTime() - RECENT_MS));
  const recent = sql.all<{ id: string }>(
    'SELECT id FROM events WHERE received_at >= :since ORDER BY received_at DESC, id DESC LIMIT :max',
    { since, max },
  );
  // Oldest first, so that the Set's insertion order is the order to forget in.
  for (let i = recent.length - 1; i >= 0; i--) ids.add((recent[i] as { id: string }).id);

  const add = (id: string) => {
    if (ids.has(id)) return;
    ids.add(id);
    if (ids.size > max) ids.delete(ids.values().next().value as string);
  };

  return {
    get size() {
      return ids.size;
    },
    has: (id) => ids.has(id),
    add(list) {
      for (const id of list) add(id);
    },
    countDuplicates(list) {
      return list.flatMap((id) => sql.all<Record<string, unknown>>(COUNT_DUPLICATE, { id }));
    },
  };
}
