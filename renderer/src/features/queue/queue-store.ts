import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ChannelOutput } from '../../../../contract/channels.ts';
import type { CustomerDetail, Progress } from '../../../../contract/customers.ts';
import type { QueueRow, QueueWindowInput, Section } from '../../../../contract/queue.ts';
import { api } from '../../api.ts';
import {
  indexOfRow,
  keepAround,
  offsetsAround,
  PAGE_SIZE,
  type Pages,
  type Range,
  rowAt,
} from './window-cache.ts';

export type SectionFilter = QueueWindowInput['section'];
export type ImportAvailability = ChannelOutput<'customers.importAvailability'>;
export type Job = Progress['job'];

/** The name of the `performance` measure from asking for a new list to its rows on screen (bench/queue-render.ts). */
export const ROWS_PAINTED_MEASURE = 'queue.rows-painted';

interface QueueState {
  section: SectionFilter;
  search: string;
  /** The selected customer, by id: it stays selected through refreshes, moves and reloads. */
  selectedId: string | null;
  /** Where the selection is (or last was) in the list, so that j/k carry on from there. */
  cursor: number;
  /** A move landed on a row not loaded yet: it is selected when its page arrives. */
  selectionPending: boolean;
  /** Bumped by keyboard moves: the list brings the selection into view. */
  scrollRequest: number;
  /** Bumped when section or search change: the list goes back to the top. */
  queryVersion: number;
  pages: Pages;
  /** Rows in the list (the scroll height); null until main first answers. */
  total: number | null;
  counts: Record<Section, number> | null;
  /** When the current list was asked for (`performance.now()`), until its rows are on screen. */
  askedAt: number | null;
  problem: string | null;
  jobs: Partial<Record<Job, Progress>>;
  jobProblem: string | null;
  importAvailability: ImportAvailability | null;

  setSection(section: SectionFilter): void;
  setSearch(search: string): void;
  select(id: string, index: number): void;
  moveBy(delta: 1 | -1): void;
  /** The list reports which rows are on screen; the store fetches what they need and drops the rest. */
  showRange(range: Range): void;
  /** Asks main again for the rows on screen, keeping them shown until the answer comes. */
  refresh(): void;
  /** The list is (re)opened: its rows may be stale. */
  reload(): void;
  rowsPainted(): void;
  selectedRow(): QueueRow | undefined;
  added(customer: CustomerDetail): void;
  loadImportAvailability(): Promise<void>;
  startImport(): Promise<void>;
  refreshAll(): Promise<void>;
  progressed(progress: Progress): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A job's start answer can arrive after its first events: never let the bar go backwards. */
function laterProgress(known: Progress | undefined, next: Progress): Progress {
  if (known && !known.finished && !next.finished && next.done < known.done) return known;
  return next;
}

export const useQueueStore = create<QueueState>()(
  persist(
    (set, get) => {
      /** Every load belongs to a generation; a new query or a refresh starts the next one. */
      let generation = 0;
      let visible: Range = { start: 0, end: PAGE_SIZE - 1 };
      const inFlight = new Map<number, number>();
      let refreshWaiting = false;

      const ensureVisible = () => {
        const { pages, total } = get();
        // Even an empty list asks for its first visible page: that answer says whether it is still empty.
        const offsets = offsetsAround(visible, Math.max(total ?? visible.end + 1, visible.start + 1));
        for (const offset of offsets) {
          if (pages.get(offset)?.generation === generation || inFlight.get(offset) === generation) continue;
          load(offset);
        }
      };

      const load = (offset: number) => {
        const loading = generation;
        const { section, search } = get();
        inFlight.set(offset, loading);
        api.queue
          .window({ section, search, offset, limit: PAGE_SIZE })
          .then((window) => {
            if (loading !== generation) return;
            set((state) => {
              const pages = new Map(state.pages).set(offset, { rows: window.rows, generation: loading });
              const kept = keepAround(pages, visible, window.total);
              return {
                pages: kept,
                total: window.total,
                counts: window.counts,
                problem: null,
                ...followSelection(kept, state),
              };
            });
            ensureVisible();
          })
          .catch((error: unknown) => {
            if (loading === generation)
              set({ problem: `The queue could not be loaded: ${messageOf(error)}` });
          })
          .finally(() => {
            if (inFlight.get(offset) === loading) inFlight.delete(offset);
            if (inFlight.size === 0 && refreshWaiting) {
              refreshWaiting = false;
              get().refresh();
            }
          });
      };

      /** A new list: what was held belonged to another query. */
      const startQuery = (change: Partial<QueueState>) => {
        generation++;
        visible = { start: 0, end: visible.end - visible.start };
        set((state) => ({
          ...change,
          pages: new Map(),
          cursor: 0,
          selectionPending: false,
          queryVersion: state.queryVersion + 1,
          askedAt: performance.now(),
        }));
        ensureVisible();
      };

      return {
        section: 'all',
        search: '',
        selectedId: null,
        cursor: 0,
        selectionPending: false,
        scrollRequest: 0,
        queryVersion: 0,
        pages: new Map(),
        total: null,
        counts: null,
        askedAt: null,
        problem: null,
        jobs: {},
        jobProblem: null,
        importAvailability: null,

        setSection: (section) => {
          if (section !== get().section) startQuery({ section });
        },
        setSearch: (search) => {
          if (search !== get().search) startQuery({ search });
        },
        select: (id, index) => set({ selectedId: id, cursor: index, selectionPending: false }),
        moveBy(delta) {
          const { pages, total, selectedId, cursor, scrollRequest } = get();
          if (!total) return;
          const at = selectedId ? indexOfRow(pages, selectedId) : -1;
          let next: number;
          if (at >= 0) next = at + delta;
          else if (selectedId && rowAt(pages, cursor)) {
            // The selected row has left the list: the row now in its place is the next one down.
            next = delta > 0 ? cursor : cursor - 1;
          } else if (selectedId || get().selectionPending) next = cursor + delta;
          else next = cursor;
          next = Math.min(Math.max(next, 0), total - 1);
          const row = rowAt(pages, next);
          set({
            cursor: next,
            selectedId: row ? row.id : selectedId,
            selectionPending: !row,
            scrollRequest: scrollRequest + 1,
          });
        },
        showRange(range) {
          if (range.start === visible.start && range.end === visible.end) return;
          visible = range;
          const { pages, total } = get();
          if (total !== null) set({ pages: keepAround(pages, visible, total) });
          ensureVisible();
        },
        refresh() {
          // Pushed updates can come by the thousand (a reconcile): one load at a time, then one more.
          if (inFlight.size > 0) {
            refreshWaiting = true;
            return;
          }
          generation++;
          ensureVisible();
        },
        reload() {
          // Rows already on screen are not a new paint to measure.
          if (get().pages.size === 0) set({ askedAt: performance.now() });
          get().refresh();
        },
        rowsPainted: () => set({ askedAt: null }),
        selectedRow() {
          const { pages, selectedId } = get();
          if (!selectedId) return undefined;
          const at = indexOfRow(pages, selectedId);
          return at >= 0 ? rowAt(pages, at) : undefined;
        },
        added(customer) {
          set({ selectedId: customer.id, selectionPending: false });
          get().refresh();
        },
        async loadImportAvailability() {
          try {
            set({ importAvailability: await api.customers.importAvailability() });
          } catch (error) {
            set({ importAvailability: { available: false, reason: messageOf(error) } });
          }
        },
        async startImport() {
          set({ jobProblem: null });
          try {
            get().progressed(await api.customers.import());
          } catch (error) {
            set({ jobProblem: `The import did not start: ${messageOf(error)}` });
          }
        },
        async refreshAll() {
          set({ jobProblem: null });
          try {
            get().progressed(await api.customers.reconcile());
          } catch (error) {
            set({ jobProblem: `Refresh all did not start: ${messageOf(error)}` });
          }
        },
        progressed(progress) {
          set((state) => ({
            jobs: { ...state.jobs, [progress.job]: laterProgress(state.jobs[progress.job], progress) },
          }));
          if (progress.finished) get().refresh();
        },
      };
    },
    {
      name: 'vetted.queue',
      storage: createJSONStorage(() => sessionStorage),
      // The reviewer's place in the queue survives a reload of the window; rows are always asked for afresh.
      partialize: ({ section, search, selectedId }) => ({ section, search, selectedId }),
    },
  ),
);

/** After new rows arrive: the selection's index, or the row a pending move landed on. */
function followSelection(pages: Pages, state: QueueState): Partial<QueueState> {
  if (state.selectedId && !state.selectionPending) {
    const at = indexOfRow(pages, state.selectedId);
    return at >= 0 ? { cursor: at } : {};
  }
  if (state.selectionPending) {
    const row = rowAt(pages, state.cursor);
    if (row) return { selectedId: row.id, selectionPending: false };
  }
  return {};
}

api.on('customer.updated', () => useQueueStore.getState().refresh());
api.on('job.progress', (progress) => useQueueStore.getState().progressed(progress));
