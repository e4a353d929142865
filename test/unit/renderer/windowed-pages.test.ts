import { describe, expect, it } from 'vitest';
import {
  holdsAll,
  indexOfRow,
  keepAround,
  mapRows,
  offsetsAround,
  PAGE_SIZE,
  type Page,
  type Pages,
  rowAt,
  STALE,
  withoutRow,
  withRowInOrder,
} from '#renderer/shared/windowed/windowed-pages.ts';

interface Row {
  id: string;
  n: number;
}

const rowsFrom = (start: number, count: number): Row[] =>
  Array.from({ length: count }, (_, i) => ({ id: `r${start + i}`, n: start + i }));

/** Pages at the given offsets of a list of `total` rows, numbered by position. */
function pagesOf(total: number, offsets: number[], generation = 1): Map<number, Page<Row>> {
  return new Map(
    offsets.map((offset) => [
      offset,
      { rows: rowsFrom(offset, Math.min(PAGE_SIZE, total - offset)), generation },
    ]),
  );
}

describe('windowed pages', () => {
  it('covers the visible rows with a page of margin either side, within the list', () => {
    expect(offsetsAround({ start: 0, end: 10 }, 500)).toEqual([0, 50]);
    expect(offsetsAround({ start: 120, end: 160 }, 500)).toEqual([50, 100, 150, 200]);
    expect(offsetsAround({ start: 480, end: 499 }, 500)).toEqual([400, 450]);
    expect(offsetsAround({ start: 0, end: 10 }, 0)).toEqual([]);
  });

  it('keeps only the pages around what is on screen', () => {
    const kept = keepAround(pagesOf(500, [0, 50, 100, 150, 200, 250]), { start: 160, end: 170 }, 500);
    expect([...kept.keys()]).toEqual([100, 150, 200]);
  });

  it('finds rows by index and by id, as far as the held pages tell', () => {
    const pages = pagesOf(120, [50, 100]);
    expect(rowAt(pages, 57)?.id).toBe('r57');
    expect(rowAt(pages, 3)).toBeUndefined();
    expect(indexOfRow(pages, 'r101')).toBe(101);
    expect(indexOfRow(pages, 'r1')).toBe(-1);
  });

  it('replaces the rows a change names and says when nothing changed', () => {
    const pages = pagesOf(60, [0, 50]);
    const changed = mapRows(pages, (row) => (row.id === 'r55' ? { ...row, n: -1 } : undefined));
    expect(changed && rowAt(changed, 55)).toEqual({ id: 'r55', n: -1 });
    expect(changed?.get(0)).toBe(pages.get(0));
    expect(mapRows(pages, () => undefined)).toBeNull();
  });

  it('removes a row: the rows after it move up across held pages, and the last one short is stale', () => {
    const pages = pagesOf(300, [0, 50, 100]);
    const without = withoutRow(pages, 'r10', 299) as Pages<Row>;
    expect(rowAt(without, 10)?.id).toBe('r11');
    expect(rowAt(without, 49)?.id).toBe('r50');
    expect(rowAt(without, 50)?.id).toBe('r51');
    expect(without.get(0)?.generation).toBe(1);
    expect(without.get(100)?.rows).toHaveLength(49);
    expect(without.get(100)?.generation).toBe(STALE);
    expect(withoutRow(pages, 'nobody', 299)).toBeNull();
  });

  it('removes the last page’s row without marking anything stale when that page ends the list', () => {
    const without = withoutRow(pagesOf(70, [0, 50]), 'r3', 69) as Pages<Row>;
    expect(without.get(50)?.rows).toHaveLength(19);
    expect([...without.values()].every((page) => page.generation === 1)).toBe(true);
  });

  it('knows when it holds the whole list, and places a new row in order there', () => {
    expect(holdsAll(pagesOf(60, [0, 50]), 60)).toBe(true);
    expect(holdsAll(pagesOf(160, [0, 50]), 160)).toBe(false);
    expect(holdsAll(new Map(), 0)).toBe(true);

    const pages = pagesOf(50, [0]);
    const placed = withRowInOrder(pages, { id: 'new', n: 20.5 }, (a, b) => a.n < b.n, 1);
    expect(rowAt(placed, 21)?.id).toBe('new');
    expect(rowAt(placed, 50)?.id).toBe('r49');
    expect(placed.get(50)?.rows).toHaveLength(1);
  });
});
