import { type RefObject, useEffect, useState } from 'react';
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

/** The columns as wide as the reviewer set them (remembered), and which of them fit the grid now. */
export function useQueueColumns(gridRef: RefObject<HTMLElement | null>): QueueColumns {
  const [widths, setWidths] = useState(() => readWidths(localStorage.getItem(STORAGE_KEY)));
  const [gridWidth, setGridWidth] = useState(0);
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    setGridWidth(grid.clientWidth);
    const observer = new ResizeObserver(() => setGridWidth(grid.clientWidth));
    observer.observe(grid);
    return () => observer.disconnect();
  }, [gridRef]);
  const visible = visibleColumns(gridWidth, widths);
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
