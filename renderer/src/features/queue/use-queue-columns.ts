import { type RefObject, useEffect, useRef, useState } from 'react';
import {
  type ColumnId,
  type ColumnWidths,
  gridTemplate,
  readWidths,
  resized,
  type SizedColumn,
  visibleColumns,
} from './queue-columns.ts';

const STORAGE_KEY = 'vetted.queue.columns';

export interface QueueColumns {
  visible: ColumnId[];
  widths: ColumnWidths;
  /** The grid's columns, for the header and every row (a CSS custom property on the grid). */
  template: string;
  resize(id: SizedColumn, width: number): void;
}

/**
 * The columns as wide as the reviewer set them (remembered), and which of them fit the grid now. The grid's
 * width is watched, but only a change in which columns show renders the grid again: the first paint of the
 * rows is not followed by a second one that changes nothing (bench/start-up.ts).
 */
export function useQueueColumns(gridRef: RefObject<HTMLElement | null>): QueueColumns {
  const [widths, setWidths] = useState(() => readWidths(localStorage.getItem(STORAGE_KEY)));
  const gridWidth = useRef(0);
  // Which columns show, as one string: the same columns are the same state, and React renders nothing.
  const [shown, setShown] = useState(() => visibleColumns(0, widths).join(' '));
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const measure = () => {
      gridWidth.current = grid.clientWidth;
      setShown(visibleColumns(gridWidth.current, widths).join(' '));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(grid);
    return () => observer.disconnect();
  }, [gridRef, widths]);
  const visible = shown.split(' ') as ColumnId[];
  return {
    visible,
    widths,
    template: gridTemplate(visible, widths),
    resize(id, width) {
      const next = resized(widths, id, width);
      setWidths(next);
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    },
  };
}
