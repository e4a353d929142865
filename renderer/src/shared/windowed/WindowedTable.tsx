import type { LucideIcon } from 'lucide-react';
import { type CSSProperties, Fragment, type ReactNode, useRef } from 'react';
import { EmptyState } from '#renderer/ui/EmptyState.tsx';
import { useWindowedList } from './use-windowed-list.ts';
import { type Pages, type Range, rowAt } from './windowed-pages.ts';

const OVERSCAN = 8;

export interface WindowedRowProps {
  /** The row's place in the whole list (0-based): its aria-rowindex is this + 2, after the header. */
  index: number;
  style: CSSProperties;
}

interface WindowedTableProps<Row> {
  label: string;
  columns: readonly string[];
  /** The class each row shares (a grid of the columns). */
  rowClass: string;
  /** Rows have one height, so the scroll height is exact without measuring anything. */
  rowHeight: number;
  pages: Pages<Row>;
  total: number | null;
  queryVersion: number;
  showRange(range: Range): void;
  rowKey(row: Row): string | number;
  /** A `<tr>` with the given index and style. */
  renderRow(row: Row, place: WindowedRowProps): ReactNode;
  /** Said when the list is empty and unfiltered: why nothing is here yet. */
  empty: { icon: LucideIcon; title: string; text: string };
  /** A filter narrows the list: empty, it says none match, in these words ("events", "entries"). */
  filtered: { on: boolean; noun: string };
}

/**
 * A virtualized table whose rows live in main: only the rows on screen (and a few around) are in the
 * DOM, and the store holds only their pages. `aria-rowcount` and `aria-rowindex` tell assistive
 * technology where each row sits in the whole list. The event log and the audit log are ones.
 */
export function WindowedTable<Row>(props: WindowedTableProps<Row>) {
  const { label, columns, rowClass, rowHeight, pages, total, queryVersion, showRange } = props;
  const scrollRef = useRef<HTMLElement>(null);
  const { virtualizer, items } = useWindowedList({
    total,
    scrollRef,
    rowHeight,
    overscan: OVERSCAN,
    showRange,
    queryVersion,
  });
  return (
    <div className="log-pane">
      {/* The scroller is a tab stop of its own: rows may hold no control, and the keyboard must still scroll. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroller must take focus to scroll by keyboard (axe: scrollable-region-focusable). */}
      <section ref={scrollRef} className="log-scroll" tabIndex={0} aria-label={`${label}, scrollable`}>
        <table aria-label={label} aria-rowcount={(total ?? 0) + 1} className="log-table">
          <thead>
            <tr aria-rowindex={1} className={rowClass}>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rowAt(pages, item.index);
              const style = { transform: `translateY(${item.start}px)`, height: rowHeight };
              return row ? (
                <Fragment key={props.rowKey(row)}>
                  {props.renderRow(row, { index: item.index, style })}
                </Fragment>
              ) : (
                <tr key={item.key} aria-rowindex={item.index + 2} className={rowClass} style={style}>
                  <td colSpan={columns.length} className="log-row-loading">
                    Loading…
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      {total === 0 &&
        (props.filtered.on ? (
          <EmptyState icon={props.empty.icon} title={`No ${props.filtered.noun} match this filter`}>
            Clear the filter to see them all.
          </EmptyState>
        ) : (
          <EmptyState icon={props.empty.icon} title={props.empty.title}>
            {props.empty.text}
          </EmptyState>
        ))}
    </div>
  );
}
