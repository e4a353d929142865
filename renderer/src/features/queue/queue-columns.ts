import { QUEUE_SORT_TITLES, type QueueSort } from '#contract/queue-view.ts';

/**
 * The queue's columns. Name takes the room the others leave; the others have a width the reviewer sets by
 * dragging (or with the arrow keys on) the edge before them, remembered on this computer. Name, status and
 * waiting time always show; Last change and Note join them only while Name keeps room to read.
 */
export type ColumnId = 'name' | 'status' | 'waiting' | 'lastChange' | 'note';
export type SizedColumn = Exclude<ColumnId, 'name'>;
export type ColumnWidths = Record<SizedColumn, number>;

export interface Column {
  id: ColumnId;
  title: string;
  sort?: { by: QueueSort; direction: 'ascending' | 'descending'; hint: string };
}

export const COLUMNS: readonly Column[] = [
  { id: 'name', title: QUEUE_SORT_TITLES.name, sort: { by: 'name', direction: 'ascending', hint: 'A to Z' } },
  { id: 'status', title: 'Status' },
  {
    id: 'waiting',
    title: QUEUE_SORT_TITLES.waiting,
    sort: { by: 'waiting', direction: 'descending', hint: 'longest first' },
  },
  {
    id: 'lastChange',
    title: QUEUE_SORT_TITLES.lastChange,
    sort: { by: 'lastChange', direction: 'ascending', hint: 'newest first' },
  },
  { id: 'note', title: 'Note' },
];

export const DEFAULT_WIDTHS: Readonly<ColumnWidths> = {
  status: 140,
  waiting: 88,
  lastChange: 104,
  note: 220,
};
export const WIDTH_LIMITS: Readonly<Record<SizedColumn, { min: number; max: number }>> = {
  status: { min: 96, max: 320 },
  waiting: { min: 64, max: 240 },
  lastChange: { min: 72, max: 240 },
  note: { min: 96, max: 640 },
};
/** Name never gets narrower than this while an optional column could make way. */
export const NAME_ROOM = 220;
/** The row's side padding and the gap between cells (CSS: .queue-row). */
export const ROW_PADDING = 24;
export const CELL_GAP = 12;

const ALWAYS: readonly SizedColumn[] = ['status', 'waiting'];
const OPTIONAL: readonly SizedColumn[] = ['lastChange', 'note'];

const clampWidth = (id: SizedColumn, width: number) =>
  Math.min(WIDTH_LIMITS[id].max, Math.max(WIDTH_LIMITS[id].min, Math.round(width)));

/** The room Name has beside `sized` columns in a grid `gridWidth` wide. */
function nameRoom(gridWidth: number, sized: readonly SizedColumn[], widths: ColumnWidths): number {
  const others = sized.reduce((sum, id) => sum + widths[id] + CELL_GAP, 0);
  return gridWidth - ROW_PADDING - others;
}

/** The columns shown in a grid this wide: the three always, then each optional one while Name keeps its room. */
export function visibleColumns(gridWidth: number, widths: ColumnWidths): ColumnId[] {
  const sized = [...ALWAYS];
  for (const id of OPTIONAL) {
    if (nameRoom(gridWidth, [...sized, id], widths) >= NAME_ROOM) sized.push(id);
    else break;
  }
  return COLUMNS.map((column) => column.id).filter(
    (id) => id === 'name' || sized.includes(id as SizedColumn),
  );
}

/** The CSS grid columns of the header and every row. */
export function gridTemplate(visible: readonly ColumnId[], widths: ColumnWidths): string {
  return visible.map((id) => (id === 'name' ? 'minmax(0, 1fr)' : `${widths[id]}px`)).join(' ');
}

/** Widths as remembered: each within its limits, a missing or broken one at its default. */
export function readWidths(stored: string | null): ColumnWidths {
  let parsed: Partial<Record<string, unknown>> = {};
  try {
    const value: unknown = stored ? JSON.parse(stored) : {};
    if (value && typeof value === 'object') parsed = value as Record<string, unknown>;
  } catch {
    // A broken entry is as good as none.
  }
  const widths = { ...DEFAULT_WIDTHS };
  for (const id of Object.keys(DEFAULT_WIDTHS) as SizedColumn[]) {
    const value = parsed[id];
    if (typeof value === 'number' && Number.isFinite(value)) widths[id] = clampWidth(id, value);
  }
  return widths;
}

/** A column set to `width`, within its limits. */
export function resized(widths: ColumnWidths, id: SizedColumn, width: number): ColumnWidths {
  return { ...widths, [id]: clampWidth(id, width) };
}
