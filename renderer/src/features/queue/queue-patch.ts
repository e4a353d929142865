import type { CaseClaim } from '#contract/claims.ts';
import type { QueueRow, QueueWindowInput, Section } from '#contract/queue.ts';
import type { QueueAfter, QueueFilters, QueueSort } from '#contract/queue-view.ts';
import {
  holdsAll,
  indexOfRow,
  mapRows,
  PAGE_SIZE,
  type Pages,
  rowAt,
  withoutRow,
  withRowInOrder,
} from '#renderer/shared/windowed/windowed-pages.ts';

export interface QueueList {
  section: QueueWindowInput['section'];
  search: string;
  sort: QueueSort;
  filters: QueueFilters;
  pages: Pages<QueueRow>;
  total: number | null;
  counts: Record<Section, number> | null;
}

/** The list with a pushed row in it, or null when it cannot be placed without asking main. */
export type Patched = Pick<QueueList, 'pages' | 'total' | 'counts'> | null;

/** The queue's order, as main's `queue.window` sorts: longest in its status first, then by id. */
export const queueOrder = (a: QueueRow, b: QueueRow) =>
  a.statusSince < b.statusSince || (a.statusSince === b.statusSince && a.id < b.id);

function moveCount(counts: QueueList['counts'], from: Section | null, to: Section): QueueList['counts'] {
  if (!counts || from === to) return counts;
  const moved = { ...counts, [to]: counts[to] + 1 };
  if (from) moved[from] = Math.max(0, counts[from] - 1);
  return moved;
}

/**
 * `customer.updated` carries the whole row: one the list holds is patched where it is (or leaves a
 * section it no longer belongs to) and the section counts move, with no round trip. A row the list
 * does not hold came from a section, or matched a search, that the renderer cannot know; it is placed
 * only when the list is the whole queue, unsearched, so that it must be new; otherwise null: ask main.
 */
export function patchPushedRow(list: QueueList, row: QueueRow): Patched {
  const { pages, total, counts, section } = list;
  if (total === null) return null;
  const at = indexOfRow(pages, row.id);
  if (at < 0) {
    if (
      section !== 'all' ||
      list.search !== '' ||
      list.sort !== 'waiting' ||
      Object.keys(list.filters).length > 0 ||
      !holdsAll(pages, total)
    )
      return null;
    const generation = pages.get(0)?.generation ?? 0;
    return {
      pages: withRowInOrder(pages, row, queueOrder, generation),
      total: total + 1,
      counts: moveCount(counts, null, row.section),
    };
  }
  const before = rowAt(pages, at) as QueueRow;
  const moved = moveCount(counts, before.section, row.section);
  if (section === 'all' || section === row.section) {
    return {
      pages: mapRows(pages, (held) => (held.id === row.id ? keepClaim(held, row) : undefined)) ?? pages,
      total,
      counts: moved,
    };
  }
  return { pages: withoutRow(pages, row.id, total - 1) ?? pages, total: total - 1, counts: moved };
}

/** A pushed row in place of the one held: `customer.updated` never carries the claim, so the held one stays. */
export function keepClaim(held: QueueRow, row: QueueRow): QueueRow {
  if (row.claimedBy !== undefined || held.claimedBy === undefined) return row;
  return { ...row, claimedBy: held.claimedBy };
}

/**
 * `claims.changed`: a held row shows its new holder where it is. Under a claim filter (Mine, Unclaimed, a
 * reviewer's) the row may enter or leave the list: 'ask' main. Null when the list does not hold the case.
 */
export function patchClaim(
  list: Pick<QueueList, 'pages' | 'filters'>,
  change: CaseClaim,
): Pages<QueueRow> | 'ask' | null {
  if (list.filters.claim) return 'ask';
  return mapRows(list.pages, (held) => {
    if (held.id !== change.customerId) return undefined;
    const { claimedBy: _, ...row } = held;
    return change.claim ? { ...row, claimedBy: change.claim.holder } : row;
  });
}

/** A row's key in the order `sort`, as main's `queue.window` compares it (keyset pagination). */
export function sortKey(row: QueueRow, sort: QueueSort): string {
  return sort === 'name'
    ? row.name
    : sort === 'lastChange'
      ? (row.changedAt ?? row.statusSince)
      : row.statusSince;
}

/** The last row of the full page held right before `offset`: the next page is read from there. */
export function afterRow(pages: Pages<QueueRow>, offset: number, sort: QueueSort): QueueAfter | null {
  const previous = offset > 0 ? pages.get(offset - PAGE_SIZE) : undefined;
  const last = previous?.rows.length === PAGE_SIZE ? previous.rows.at(-1) : undefined;
  return last ? { key: sortKey(last, sort), id: last.id } : null;
}
