import type { QueueRow } from '#contract/queue.ts';
import type { Journal, JournalEvent } from '#main/data/journal/index.ts';
import type { EventHub } from '#main/ground/event-hub.ts';

/**
 * Customers' names for the event rows pushed as deliveries arrive. Reading a customer from the journal
 * (a row, its links parsed and checked) for every turn's events was most of the announcing under a
 * stream of events about the same customers. So a name read is reused for `ttlMs`, and every `customer.updated` (a refresh, an edit)
 * replaces it at once: a name can be older than the journal's by at most `ttlMs`, and only when it changed
 * without a row update being pushed. The event log itself always reads the journal.
 */
export interface RecentNames {
  of(
    events: readonly Pick<JournalEvent, 'customerId'>[],
  ): Promise<(customerId: string | null) => string | null>;
  close(): void;
}

export function createRecentNames(
  journal: Journal,
  hub: EventHub,
  options: { ttlMs?: number; max?: number; now?: () => number } = {},
): RecentNames {
  const ttlMs = options.ttlMs ?? 1_000;
  const max = options.max ?? 1_000;
  const now = options.now ?? (() => performance.now());
  // Insertion order is age (re-inserted when read again), so the oldest goes first when full.
  const names = new Map<string, { name: string | null; at: number }>();
  const remember = (customerId: string, name: string | null) => {
    const at = now();
    // Names past their time are of no use: dropped from the front, where the oldest are.
    for (const [oldest, entry] of names) {
      if (names.size < max && at - entry.at < ttlMs) break;
      names.delete(oldest);
    }
    names.delete(customerId);
    names.set(customerId, { name, at });
  };
  const stop = hub.subscribe((event, payload) => {
    if (event === 'customer.updated') remember((payload as QueueRow).id, (payload as QueueRow).name);
  });

  return {
    async of(events) {
      const found = new Map<string, string | null>();
      const at = now();
      for (const { customerId } of events) {
        if (customerId === null || found.has(customerId)) continue;
        const recent = names.get(customerId);
        if (recent && at - recent.at < ttlMs) {
          found.set(customerId, recent.name);
          continue;
        }
        const name = (await journal.customers.get(customerId))?.name ?? null;
        remember(customerId, name);
        found.set(customerId, name);
      }
      return (customerId) => (customerId === null ? null : (found.get(customerId) ?? null));
    },
    close: stop,
  };
}
