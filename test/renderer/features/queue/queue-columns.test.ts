import { describe, expect, it } from 'vitest';
import {
  CELL_GAP,
  DEFAULT_WIDTHS,
  gridTemplate,
  NAME_ROOM,
  ROW_PADDING,
  readWidths,
  resized,
  visibleColumns,
  WIDTH_LIMITS,
} from '#renderer/features/queue/queue-columns.ts';

/** The grid width at which Name has exactly `name` pixels beside these columns. */
const widthFor = (name: number, columns: number[]) =>
  name + ROW_PADDING + columns.reduce((sum, width) => sum + width + CELL_GAP, 0);

describe('the queue’s columns', () => {
  const { status, waiting, lastChange, note } = DEFAULT_WIDTHS;

  it('always show name, status and waiting time; the others only while Name keeps its room', () => {
    expect(visibleColumns(400, DEFAULT_WIDTHS)).toEqual(['name', 'status', 'waiting']);
    const lastChangeFits = widthFor(NAME_ROOM, [status, waiting, lastChange]);
    expect(visibleColumns(lastChangeFits - 1, DEFAULT_WIDTHS)).toEqual(['name', 'status', 'waiting']);
    expect(visibleColumns(lastChangeFits, DEFAULT_WIDTHS)).toEqual([
      'name',
      'status',
      'waiting',
      'lastChange',
    ]);
    const noteFits = widthFor(NAME_ROOM, [status, waiting, lastChange, note]);
    expect(visibleColumns(noteFits, DEFAULT_WIDTHS)).toEqual([
      'name',
      'status',
      'waiting',
      'lastChange',
      'note',
    ]);
  });

  it('a wider status column makes the optional ones give way first', () => {
    const width = widthFor(NAME_ROOM, [status, waiting, lastChange]);
    expect(visibleColumns(width, resized(DEFAULT_WIDTHS, 'status', status + 40))).toEqual([
      'name',
      'status',
      'waiting',
    ]);
  });

  it('lays the columns out with Name taking the rest', () => {
    expect(gridTemplate(['name', 'status', 'waiting'], DEFAULT_WIDTHS)).toBe(
      `minmax(0, 1fr) ${status}px ${waiting}px`,
    );
  });

  it('keeps widths within their limits, and reads what was remembered, ignoring what is broken', () => {
    expect(resized(DEFAULT_WIDTHS, 'waiting', 10).waiting).toBe(WIDTH_LIMITS.waiting.min);
    expect(resized(DEFAULT_WIDTHS, 'note', 10_000).note).toBe(WIDTH_LIMITS.note.max);
    expect(readWidths(JSON.stringify({ status: 200, waiting: 'wide', note: 12 }))).toEqual({
      ...DEFAULT_WIDTHS,
      status: 200,
      note: WIDTH_LIMITS.note.min,
    });
    expect(readWidths('{not json')).toEqual(DEFAULT_WIDTHS);
    expect(readWidths(null)).toEqual(DEFAULT_WIDTHS);
  });
});
