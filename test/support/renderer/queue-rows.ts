import type { QueueRow, QueueWindow, QueueWindowInput, Section } from '#contract/queue.ts';
import { SECTIONS } from '#contract/queue.ts';

/** A customer's row, waiting in its section since `minute` minutes past ten. */
export function queueRow(id: string, section: Exclude<Section, 'drafts'>, minute: number): QueueRow {
  return {
    id,
    name: `Customer ${id}`,
    email: `${id}@example.com`,
    status: section === 'review' ? 'document' : section,
    section,
    statusSince: `2025-06-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
    gone: false,
    note: null,
  };
}

/** main's `queue.window` over a fixed set of rows, ordered as main orders them. */
export function queueWindowOver(rows: QueueRow[]) {
  return async ({ section, offset, limit }: QueueWindowInput): Promise<QueueWindow> => {
    const counts = Object.fromEntries(SECTIONS.map((name) => [name, 0])) as Record<Section, number>;
    for (const row of rows) counts[row.section]++;
    const matching = rows
      .filter((row) => section === 'all' || row.section === section)
      .sort((a, b) => a.statusSince.localeCompare(b.statusSince) || a.id.localeCompare(b.id));
    return { rows: matching.slice(offset, offset + limit), total: matching.length, counts };
  };
}

/** sessionStorage for the queue's persisted place, which Node lacks. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}
