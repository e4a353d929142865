/**
 * The rows a windowed list holds (the queue, the event log): pages of `PAGE_SIZE` rows keyed by their
 * offset in the list, only those near what is on screen. Everything else stays in main's journal, so
 * the renderer's memory does not grow with the list. Pure functions: the loader and the stores use them.
 */
export const PAGE_SIZE = 50;
/** Pages kept on either side of the visible rows, so that a short scroll finds its rows in hand. */
export const MARGIN_PAGES = 1;
/** The generation of a page a local patch left incomplete: it is asked for again when next needed. */
export const STALE = -1;

export interface Page<Row> {
  rows: Row[];
  /** The load it came from: an older one is still shown, but replaced as soon as possible. */
  generation: number;
}
export type Pages<Row> = ReadonlyMap<number, Page<Row>>;

export interface Range {
  start: number;
  end: number;
}

export const pageOf = (index: number) => Math.floor(index / PAGE_SIZE) * PAGE_SIZE;

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
export function keepAround<Row>(pages: Pages<Row>, range: Range, total: number): Map<number, Page<Row>> {
  const wanted = new Set(offsetsAround(range, total));
  return new Map([...pages].filter(([offset]) => wanted.has(offset)));
}

export function rowAt<Row>(pages: Pages<Row>, index: number): Row | undefined {
  return pages.get(pageOf(index))?.rows[index % PAGE_SIZE];
}

/** Where a row is in the list, as far as the held pages tell; -1 when not held. */
export function indexOfRow<Row extends { id: string }>(pages: Pages<Row>, id: string): number {
  for (const [offset, page] of pages) {
    const at = page.rows.findIndex((row) => row.id === id);
    if (at >= 0) return offset + at;
  }
  return -1;
}

/** Every held row that `change` returns a new value for is replaced where it is; null when none was. */
export function mapRows<Row>(pages: Pages<Row>, change: (row: Row) => Row | undefined): Pages<Row> | null {
  let changed = false;
  const next = new Map<number, Page<Row>>();
  for (const [offset, page] of pages) {
    const rows = page.rows.map((row) => {
      const replaced = change(row);
      if (replaced === undefined) return row;
      changed = true;
      return replaced;
    });
    next.set(offset, changed ? { ...page, rows } : page);
  }
  return changed ? next : null;
}

/**
 * The list without one held row, `total` being the list's length once it is gone. The rows after it
 * move up by one, across the held pages that follow; the last of those lacks its final row unless it
 * ends the list, so it is marked stale, to be asked for again when it is next needed.
 */
export function withoutRow<Row extends { id: string }>(
  pages: Pages<Row>,
  id: string,
  total: number,
): Pages<Row> | null {
  const at = indexOfRow(pages, id);
  if (at < 0) return null;
  const next = new Map(pages);
  let offset = pageOf(at);
  let carry: Row[] = [];
  let rows = (pages.get(offset)?.rows ?? []).filter((row) => row.id !== id);
  for (;;) {
    const following = pages.get(offset + PAGE_SIZE);
    carry = following ? following.rows.slice(0, 1) : [];
    const page = pages.get(offset) as Page<Row>;
    const filled = [...rows, ...carry];
    const complete = filled.length >= Math.min(PAGE_SIZE, total - offset);
    next.set(offset, { rows: filled, generation: complete ? page.generation : STALE });
    if (!following) break;
    offset += PAGE_SIZE;
    rows = following.rows.slice(1);
  }
  return next;
}

/** Whether the held pages are the whole list, from its first row to its last. */
export function holdsAll<Row>(pages: Pages<Row>, total: number): boolean {
  let held = 0;
  for (let offset = 0; offset < total; offset += PAGE_SIZE) {
    const page = pages.get(offset);
    if (!page || page.generation === STALE) return false;
    held += page.rows.length;
  }
  return held === total;
}

/** The whole list, held entirely, with one row more placed in order by `before`; pages are cut again. */
export function withRowInOrder<Row>(
  pages: Pages<Row>,
  row: Row,
  before: (a: Row, b: Row) => boolean,
  generation: number,
): Pages<Row> {
  const rows = [...pages.keys()].sort((a, b) => a - b).flatMap((offset) => pages.get(offset)?.rows ?? []);
  const at = rows.findIndex((other) => before(row, other));
  rows.splice(at < 0 ? rows.length : at, 0, row);
  const next = new Map<number, Page<Row>>();
  for (let offset = 0; offset < rows.length; offset += PAGE_SIZE) {
    next.set(offset, { rows: rows.slice(offset, offset + PAGE_SIZE), generation });
  }
  return next;
}
