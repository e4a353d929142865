import { ArrowDown, ArrowUp } from 'lucide-react';
import { ResizeHandle } from '#renderer/ui/ResizeHandle.tsx';
import { COLUMNS, type ColumnId, type SizedColumn, WIDTH_LIMITS } from './queue-columns.ts';
import { useQueueStore } from './queue-store.ts';
import type { QueueColumns } from './use-queue-columns.ts';

/** The header row is this tall (CSS: .queue-row-head), so the rows know where they start in the scroller. */
export const HEADER_HEIGHT = 36;

/**
 * The column headers; those that sort say which order is in force (aria-sort) and change it on a click.
 * The edge before each column but Name resizes it.
 */
export function QueueGridHeader({ columns }: { columns: QueueColumns }) {
  const sort = useQueueStore((state) => state.sort);
  const setSort = useQueueStore((state) => state.setSort);
  const shown = COLUMNS.filter((column) => columns.visible.includes(column.id));
  return (
    <thead className="queue-grid-head">
      <tr aria-rowindex={1} className="queue-row queue-row-head">
        {shown.map((column) => {
          const sorted = column.sort?.by === sort;
          const Arrow = column.sort?.direction === 'ascending' ? ArrowUp : ArrowDown;
          return (
            <th key={column.id} scope="col" aria-sort={sorted ? column.sort?.direction : undefined}>
              {isSized(column.id) && (
                <ResizeHandle
                  label={`Resize the ${column.title} column`}
                  value={columns.widths[column.id]}
                  min={WIDTH_LIMITS[column.id].min}
                  max={WIDTH_LIMITS[column.id].max}
                  grows="left"
                  step={16}
                  className="column-handle"
                  onResize={(width) => columns.resize(column.id as SizedColumn, width)}
                />
              )}
              {column.sort ? (
                <button
                  type="button"
                  className="column-sort"
                  title={`Sort by ${column.title.toLowerCase()}, ${column.sort.hint}`}
                  onClick={() => column.sort && setSort(column.sort.by)}
                >
                  {column.title}
                  {sorted && <Arrow aria-hidden="true" className="column-sort-icon" />}
                </button>
              ) : (
                <span className="column-title">{column.title}</span>
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

const isSized = (id: ColumnId): id is SizedColumn => id !== 'name';
