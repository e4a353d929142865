import { SearchX, UsersRound } from 'lucide-react';
import { type CSSProperties, type RefObject, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { QueueRow } from '#contract/queue.ts';
import { useWindowedList } from '#renderer/shared/windowed/use-windowed-list.ts';
import { rowAt } from '#renderer/shared/windowed/windowed-pages.ts';
import { EmptyState } from '#renderer/ui/EmptyState.tsx';
import { useNow } from '#renderer/ui/time.tsx';
import { useOverdueStore } from './overdue-store.ts';
import { HEADER_HEIGHT, QueueGridHeader } from './QueueGridHeader.tsx';
import { QueueGridRow, rowId } from './QueueGridRow.tsx';
import { ROWS_PAINTED_MEASURE, useQueueStore } from './queue-store.ts';
import { SampleCustomersOffer } from './SampleCustomersOffer.tsx';
import { useQueueColumns } from './use-queue-columns.ts';

/** Rows have one height, so the scroll height is exact without measuring anything. */
const ROW_HEIGHT = 52;
const OVERSCAN = 6;

interface QueueGridProps {
  /** The grid itself: it keeps focus while the reviewer moves, the selected row its active descendant. */
  gridRef: RefObject<HTMLTableElement | null>;
  onPick(row: QueueRow): void;
  /** The list's rows are on screen: the shell fetches the other screens then. */
  onRowsPainted(): void;
}

/**
 * The queue as a virtualized grid: column headers, then only the rows on screen (and a few around) in
 * the DOM; the store holds only their pages. The grid is its own scroller, so the one tab stop that takes
 * the keyboard (j/k, the arrows) is also what scrolls. Screen readers hear its length (aria-rowcount) and
 * each row's place (aria-rowindex).
 */
export function QueueGrid({ gridRef, onPick, onRowsPainted }: QueueGridProps) {
  const { pages, total, selectedId, cursor, scrollRequest, queryVersion, search, askedAt, capped } =
    useQueueStore(
      useShallow((state) => ({
        pages: state.pages,
        total: state.total,
        selectedId: state.selectedId,
        cursor: state.cursor,
        scrollRequest: state.scrollRequest,
        queryVersion: state.queryVersion,
        search: state.search,
        askedAt: state.askedAt,
        capped: state.capped,
      })),
    );
  const { showRange, select, rowsPainted } = useQueueStore.getState();
  useOverdueStore((state) => state.overdue);
  const overdue = useOverdueStore.getState().isOverdue;
  const now = useNow();
  const columns = useQueueColumns(gridRef);
  const { virtualizer, items } = useWindowedList({
    total,
    scrollRef: gridRef,
    rowHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
    showRange,
    queryVersion,
    scrollMargin: HEADER_HEIGHT,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: only keyboard moves scroll, not every change of cursor.
  useEffect(() => {
    if (scrollRequest > 0) virtualizer.scrollToIndex(cursor, { align: 'auto' });
  }, [scrollRequest]);

  const shownRows = items.some((item) => rowAt(pages, item.index));
  useEffect(() => {
    if (askedAt === null || !shownRows) return;
    rowsPainted();
    measureUntilPainted(askedAt);
    onRowsPainted();
  }, [askedAt, shownRows, rowsPainted, onRowsPainted]);

  const activeShown = items.some((item) => rowAt(pages, item.index)?.id === selectedId);
  const top = (start: number) => start - HEADER_HEIGHT;
  return (
    <div className="queue-list-pane">
      <table
        ref={gridRef}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA grid pattern on a table: one focusable widget whose active row follows j/k.
        role="grid"
        aria-label="Customers"
        aria-rowcount={total === null ? undefined : total + 1}
        tabIndex={0}
        aria-activedescendant={selectedId && activeShown ? rowId(selectedId) : undefined}
        className="queue-grid"
        style={{ '--queue-columns': columns.template } as CSSProperties}
      >
        <QueueGridHeader columns={columns} />
        <tbody className="queue-list" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rowAt(pages, item.index);
            if (!row) {
              return (
                <tr
                  key={item.key}
                  aria-rowindex={item.index + 2}
                  className="queue-row queue-row-loading"
                  style={{ transform: `translateY(${top(item.start)}px)`, height: ROW_HEIGHT }}
                >
                  <td>Loading…</td>
                </tr>
              );
            }
            return (
              <QueueGridRow
                key={row.id}
                row={row}
                index={item.index}
                columns={columns.visible}
                selected={row.id === selectedId}
                overdue={overdue(row.section, row.statusSince, now)}
                now={now}
                top={top(item.start)}
                height={ROW_HEIGHT}
                onPick={() => {
                  select(row.id, item.index);
                  gridRef.current?.focus({ preventScroll: true });
                  onPick(row);
                }}
              />
            );
          })}
        </tbody>
      </table>
      {total === 0 &&
        (search ? (
          <EmptyState icon={SearchX} title={`No customers match “${search}” here`}>
            Try another name or e-mail, or look in All.
          </EmptyState>
        ) : (
          <EmptyState icon={UsersRound} title="No customers in this section">
            Cases arrive here as the service reports them, or when you add or import customers.
            <SampleCustomersOffer onAdded={() => useQueueStore.getState().reload()} />
          </EmptyState>
        ))}
      {capped && (
        <p className="queue-capped hint">
          More than 1,000 match: the list shows the first 1,000. Narrow the search to see others.
        </p>
      )}
    </div>
  );
}

/** After React commits, the next frame paints: measure once that frame is done (bench/queue-render.ts). */
function measureUntilPainted(askedAt: number): void {
  requestAnimationFrame(() => {
    setTimeout(() => {
      performance.clearMeasures(ROWS_PAINTED_MEASURE);
      performance.measure(ROWS_PAINTED_MEASURE, { start: askedAt, end: performance.now() });
    }, 0);
  });
}
