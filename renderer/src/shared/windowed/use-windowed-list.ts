import { useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect } from 'react';

interface WindowedListOptions {
  /** Rows in the whole list (null while the first window is on its way). */
  total: number | null;
  scrollRef: RefObject<HTMLElement | null>;
  rowHeight: number;
  overscan: number;
  /** Told which rows are on screen, so the store fetches just those (plus its margin). */
  showRange(range: { start: number; end: number }): void;
  /** Changes when the query does (a new filter or search): the list goes back to its top. */
  queryVersion: number;
  /** Where the rows start in the scroller (below a header that scrolls with it), in pixels. */
  scrollMargin?: number;
}

/**
 * A virtualized list whose rows live in main: the page holds only what is on screen, and the
 * store is told which window to fetch. Shared by the queue and the event log.
 */
export function useWindowedList({
  total,
  scrollRef,
  rowHeight,
  overscan,
  showRange,
  queryVersion,
  scrollMargin = 0,
}: WindowedListOptions) {
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    scrollMargin,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index;
  const last = items.at(-1)?.index;

  useEffect(() => {
    if (first !== undefined && last !== undefined) showRange({ start: first, end: last });
  }, [first, last, showRange]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query is the trigger, not a value read here.
  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [queryVersion]);

  return { virtualizer, items };
}
