import { type RefObject, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { type QueueRow, SECTION_TITLES } from '../../../../contract/queue.ts';
import { TimeSince, useNow } from '../../ui/time.tsx';
import { useWindowedList } from '../../ui/use-windowed-list.ts';
import { rowAt } from '../../ui/windowed-pages.ts';
import { ROWS_PAINTED_MEASURE, useQueueStore } from './queue-store.ts';

/** Rows have one height, so the scroll height is exact without measuring anything. */
const ROW_HEIGHT = 60;
const OVERSCAN = 6;

const optionId = (id: string) => `queue-row-${id}`;

interface QueueListProps {
  listRef: RefObject<HTMLDivElement | null>;
  onOpen(row: QueueRow): void;
}

/**
 * The queue as a virtualized listbox: only the rows on screen (and a few around) are in the DOM, and
 * the store holds only their pages. The listbox keeps focus; the selected row is its active descendant.
 */
export function QueueList({ listRef, onOpen }: QueueListProps) {
  const { pages, total, selectedId, cursor, scrollRequest, queryVersion, section, search, askedAt } =
    useQueueStore(
      useShallow((state) => ({
        pages: state.pages,
        total: state.total,
        selectedId: state.selectedId,
        cursor: state.cursor,
        scrollRequest: state.scrollRequest,
        queryVersion: state.queryVersion,
        section: state.section,
        search: state.search,
        askedAt: state.askedAt,
      })),
    );
  const { showRange, select, rowsPainted } = useQueueStore.getState();
  const now = useNow();
  const { virtualizer, items } = useWindowedList({
    total,
    scrollRef: listRef,
    rowHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
    showRange,
    queryVersion,
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
  }, [askedAt, shownRows, rowsPainted]);

  const activeShown = items.some((item) => rowAt(pages, item.index)?.id === selectedId);
  return (
    <div className="queue-list-pane">
      <div
        ref={listRef}
        role="listbox"
        aria-label="Customers"
        tabIndex={0}
        aria-activedescendant={selectedId && activeShown ? optionId(selectedId) : undefined}
        className="queue-list"
      >
        <div role="presentation" className="queue-list-track" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rowAt(pages, item.index);
            const place = { transform: `translateY(${item.start}px)`, height: ROW_HEIGHT };
            if (!row) {
              return (
                <div key={item.key} role="presentation" className="queue-row queue-row-loading" style={place}>
                  Loading…
                </div>
              );
            }
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys (j/k, arrows, Enter) for every option.
              <div
                key={row.id}
                id={optionId(row.id)}
                role="option"
                tabIndex={-1}
                aria-selected={row.id === selectedId}
                aria-posinset={item.index + 1}
                aria-setsize={total ?? undefined}
                className={`queue-row${row.gone ? ' queue-row-gone' : ''}`}
                style={place}
                onClick={() => {
                  select(row.id, item.index);
                  listRef.current?.focus();
                  onOpen(row);
                }}
              >
                <span className="queue-row-name">{row.name}</span>{' '}
                <span className="queue-row-email">{row.email}</span>{' '}
                <span className="queue-row-status">
                  {row.status}
                  {section === 'all' && (
                    <span className="queue-row-section"> · {SECTION_TITLES[row.section]}</span>
                  )}
                  {row.gone && <span className="badge badge-gone"> gone</span>}
                </span>{' '}
                <span className="queue-row-since">
                  <TimeSince since={row.statusSince} now={now} />
                </span>
                {row.note && <span className="queue-row-note"> {row.note}</span>}
              </div>
            );
          })}
        </div>
      </div>
      {total === 0 && (
        <p className="queue-empty">
          {search ? `No customers match “${search}” here.` : 'No customers in this section.'}
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
