import {
  keepAround,
  offsetsAround,
  PAGE_SIZE,
  type Pages,
  pageOf,
  type Range,
  STALE,
} from './windowed-pages.ts';

/** What main answers for one page of a windowed list: its rows, the list's length, and more per list. */
export interface WindowAnswer<Row> {
  rows: Row[];
  total: number;
}

export interface WindowedLoaderOptions<Row, Answer extends WindowAnswer<Row>> {
  /** Asks main for one page of the current query. */
  fetch(offset: number, limit: number): Promise<Answer>;
  /** The pages and total the store holds now. */
  read(): { pages: Pages<Row>; total: number | null };
  /** New pages for the store: with the answer that brought them, or none when pages were only dropped. */
  write(pages: Pages<Row>, answer: Answer | null): void;
  failed(error: unknown): void;
}

export interface WindowedLoader {
  /** The list reports which rows are on screen: what they need is fetched and the rest dropped. */
  showRange(range: Range): void;
  /** Asks again for the rows on screen, keeping them shown until the answer comes. */
  refresh(): void;
  /** A new query (filter, search): what was held belonged to another one. The store clears its pages. */
  newQuery(): void;
  /** Fetches whatever visible page is missing or stale (after a local patch). */
  ensureVisible(): void;
  /**
   * The store changed its rows locally (a pushed row): answers still on their way predate the change,
   * so one refresh follows them. Costs nothing when no load is under way.
   */
  patched(): void;
}

/**
 * Loads the pages of a windowed list from main, one generation at a time: a new query or a refresh
 * starts the next generation, and answers of an older one are dropped. Shared by the queue and the
 * event log; each store keeps its pages in its own state and says how to fetch and write them.
 */
export function windowedLoader<Row, Answer extends WindowAnswer<Row>>(
  options: WindowedLoaderOptions<Row, Answer>,
): WindowedLoader {
  let generation = 0;
  let visible: Range = { start: 0, end: PAGE_SIZE - 1 };
  const inFlight = new Map<number, number>();
  let refreshWaiting = false;

  const ensureVisible = () => {
    const { pages, total } = options.read();
    // Even an empty list asks for its first visible page: that answer says whether it is still empty.
    for (const offset of offsetsAround(visible, Math.max(total ?? visible.end + 1, visible.start + 1))) {
      if (pages.get(offset)?.generation === generation || inFlight.get(offset) === generation) continue;
      load(offset);
    }
  };

  const load = (offset: number) => {
    const loading = generation;
    inFlight.set(offset, loading);
    options
      .fetch(offset, PAGE_SIZE)
      .then((answer) => {
        if (loading !== generation) return;
        const pages = new Map(options.read().pages).set(offset, { rows: answer.rows, generation: loading });
        options.write(keepAround(pages, visible, answer.total), answer);
        ensureVisible();
      })
      .catch((error: unknown) => {
        if (loading === generation) options.failed(error);
      })
      .finally(() => {
        if (inFlight.get(offset) === loading) inFlight.delete(offset);
        if (inFlight.size === 0 && refreshWaiting) {
          refreshWaiting = false;
          refresh();
        }
      });
  };

  const staleOnScreen = () => {
    const { pages } = options.read();
    for (let offset = pageOf(visible.start); offset <= visible.end; offset += PAGE_SIZE) {
      if (pages.get(offset)?.generation === STALE) return true;
    }
    return false;
  };

  const refresh = () => {
    // Pushed changes can come by the thousand (a reconcile): one load at a time, then one more.
    if (inFlight.size > 0) {
      refreshWaiting = true;
      return;
    }
    generation++;
    ensureVisible();
  };

  return {
    showRange(range) {
      if (range.start === visible.start && range.end === visible.end) return;
      visible = range;
      const { pages, total } = options.read();
      if (total !== null) options.write(keepAround(pages, visible, total), null);
      ensureVisible();
    },
    refresh,
    newQuery() {
      generation++;
      visible = { start: 0, end: visible.end - visible.start };
    },
    ensureVisible,
    patched() {
      if (inFlight.size > 0) refreshWaiting = true;
      // A page left short is asked for now only if its gap is on screen; a margin page waits for a scroll.
      else if (staleOnScreen()) ensureVisible();
    },
  };
}
