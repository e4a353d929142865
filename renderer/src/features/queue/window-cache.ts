import type { QueueRow } from '../../../../contract/queue.ts';

/**
 * The rows the renderer holds: pages of `PAGE_SIZE` rows keyed by their offset in the list, only
 * those near what is on screen. Everything else stays in main's journal, so the renderer's memory
 * does not grow with the queue.
 */
export const PAGE_SIZE = 50;
/** Pages kept on either side of the visible rows, so that a short scroll finds its rows in hand. */
export const MARGIN_PAGES = 1;

export interface Page {
  rows: QueueRow[];
  /** The load it came from: an older one is still shown, but replaced as soon as possible. */
  generation: number;
}
export type Pages = ReadonlyMap<number, Page>;

export interface Range {
  start: number;
  end: number;
}

const pageOf = (index: number) => Math.floor(index / PAGE_SIZE) * PAGE_SIZE;

/** Offsets of the pages covering rows `start..end` (inclusive) and the margin around them. */
export function offsetsAround({ start, end }: Range, total: number): number[] {
  if (total <= 0 || end < start) return [];
  const first = Math.max(0, pageOf(start) - MARGIN_PAGES * PAGE_SIZE);
  const last = Math.min(pageOf(total - 1), pageOf(end) + MARGIN_PAGES * PAGE_SIZE);
  const offsets: number[] = [];
  for (let offset = first; offset <= last; offset += PAGE_SIZE) offsets.push(offset);
  return offsets;
}

/** The pages worth keeping for what is on screen; the rest are dropped. */
export function keepAround(pages: Pages, range: Range, total: number): Map<number, Page> {
  const wanted = new Set(offsetsAround(range, total));
  return new Map([...pages].filter(([offset]) => wanted.has(offset)));
}

export function rowAt(pages: Pages, index: number): QueueRow | undefined {
  return pages.get(pageOf(index))?.rows[index % PAGE_SIZE];
}

/** Where a row is in the list, as far as the held pages tell; -1 when not held. */
export function indexOfRow(pages: Pages, id: string): number {
  for (const [offset, page] of pages) {
    const at = page.rows.findIndex((row) => row.id === id);
    if (at >= 0) return offset + at;
  }
  return -1;
}

export function heldRowCount(pages: Pages): number {
  let count = 0;
  for (const page of pages.values()) count += page.rows.length;
  return count;
}
