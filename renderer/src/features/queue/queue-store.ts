import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ChannelOutput } from '#contract/channels.ts';
import type { CaseClaim } from '#contract/claims.ts';
import type { CustomerDetail } from '#contract/customers.ts';
import type { DraftState } from '#contract/drafts.ts';
import type { QueueRow, QueueWindowInput, Section } from '#contract/queue.ts';
import type { QueueFilters, QueueSort } from '#contract/queue-view.ts';
import { api } from '#renderer/api.ts';
import type { SectionFilter } from '#renderer/route.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';
import { windowedLoader } from '#renderer/shared/windowed/windowed-loader.ts';
import {
  indexOfRow,
  mapRows,
  PAGE_SIZE,
  type Pages,
  type Range,
  rowAt,
} from '#renderer/shared/windowed/windowed-pages.ts';
import { earlyWindow } from './early-window.ts';
import { afterRow, keepClaim, patchClaim, patchPushedRow } from './queue-patch.ts';

export type ImportAvailability = ChannelOutput<'customers.importAvailability'>;

/** The name of the `performance` measure from asking for a new list to its rows on screen (bench/queue-render.ts). */
export const ROWS_PAINTED_MEASURE = 'queue.rows-painted';

interface QueueState {
  section: SectionFilter;
  search: string;
  sort: QueueSort;
  filters: QueueFilters;
  /** More rows match than are counted: the list shows "1,000+" and the counts are lower bounds. */
  capped: boolean;
  /** The pointer is over the list or the keyboard is in it: live updates wait, so nothing moves under it. */
  interacting: boolean;
  /** Changes that arrived while the reviewer was interacting: "N updates — show". */
  pendingUpdates: number;
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
  pages: Pages<QueueRow>;
  /** Rows in the list (the scroll height); null until main first answers. */
  total: number | null;
  counts: Record<Section, number> | null;
  /** When the current list was asked for (`performance.now()`), until its rows are on screen. */
  askedAt: number | null;
  problem: string | null;
  importAvailability: ImportAvailability | null;

  /** The queue is on screen: pushed rows patch it. Returns the function that stops watching. */
  watch(): () => void;
  setSection(section: SectionFilter): void;
  setSearch(search: string): void;
  setSort(sort: QueueSort): void;
  setFilters(filters: QueueFilters): void;
  setInteracting(interacting: boolean): void;
  /** Applies the changes that waited (the "show" of "N updates — show"). */
  applyUpdates(): void;
  select(id: string, index: number): void;
  moveBy(delta: 1 | -1 | 0): void;
  /** Asks main for the first page now, while the page boots; the list takes the answer once it shows. */
  prefetch(): void;
  /** The list reports which rows are on screen; the store fetches what they need and drops the rest. */
  showRange(range: Range): void;
  /** Asks main again for the rows on screen, keeping them shown until the answer comes. */
  refresh(): void;
  /** The list is (re)opened: its rows may be stale. */
  reload(): void;
  rowsPainted(): void;
  selectedRow(): QueueRow | undefined;
  /** Main pushed a customer's row (`customer.updated`): patched in place when the list can place it. */
  pushed(row: QueueRow): void;
  /** A case's claim changed on some desk (`claims.changed`): its row shows the new holder. */
  claimChanged(change: CaseClaim): void;
  /** Brings a customer that exists on the service into Vetted, by its id or URL, and selects it. */
  add(ref: string): Promise<CustomerDetail>;
  loadImportAvailability(): Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useQueueStore = create<QueueState>()(
  persist(
    (set, get) => {
      const loader = windowedLoader({
        fetch: (offset, limit) => {
          const input = windowInput(get(), offset, limit);
          const held = early.take(input);
          if (!held) return api.queue.window(input);
          return held.then((answer) => {
            if (!answer) return api.queue.window(input);
            // Main answered before the queue watched for pushed changes: one refresh follows, as after a patch.
            loader.refresh();
            return answer;
          });
        },
        read: () => get(),
        write: (pages, window) =>
          set((state) => ({
            pages,
            ...(window
              ? { total: window.total, counts: window.counts, capped: window.capped ?? false, problem: null }
              : {}),
            ...followSelection(pages, state),
          })),
        failed: (error) => set({ problem: `The queue could not be loaded: ${messageOf(error)}` }),
      });

      const early = earlyWindow((input) => api.queue.window(input));

      /** A new list: what was held belonged to another query. */
      const startQuery = (change: Partial<QueueState>) => {
        loader.newQuery();
        set((state) => ({
          ...change,
          pages: new Map(),
          cursor: 0,
          selectionPending: false,
          pendingUpdates: 0,
          queryVersion: state.queryVersion + 1,
          askedAt: performance.now(),
        }));
        loader.ensureVisible();
      };

      /** A change that may move rows: now, or once the reviewer stops interacting with the list. */
      const refreshOrHold = () => {
        if (get().interacting) set((state) => ({ pendingUpdates: state.pendingUpdates + 1 }));
        else loader.refresh();
      };

      /** The last state seen of each draft: the list reloads when one changes state, not on every autosave. */
      const draftStates = new Map<string, DraftState>();

      return {
        section: 'all',
        search: '',
        sort: 'waiting',
        filters: {},
        capped: false,
        interacting: false,
        pendingUpdates: 0,
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
        importAvailability: null,

        watch: sharedWatch(() => [
          api.on('customer.updated', (row) => get().pushed(row)),
          // A finished job (import, Refresh all, outbox) changed rows by the hundred: one reload.
          api.on('job.progress', (progress) => {
            if (progress.finished) refreshOrHold();
          }),
          // A draft's row carries its state; its rank and the drafts count change with it.
          api.on('draft.updated', (draft) => {
            if (draftStates.get(draft.id) === draft.state) return;
            draftStates.set(draft.id, draft.state);
            refreshOrHold();
          }),
          api.on('draft.discarded', ({ id }) => {
            draftStates.delete(id);
            refreshOrHold();
          }),
          api.on('claims.changed', (change) => get().claimChanged(change)),
        ]),
        setSection: (section) => {
          if (section !== get().section) startQuery({ section });
        },
        setSearch: (search) => {
          if (search !== get().search) startQuery({ search });
        },
        setSort: (sort) => {
          if (sort !== get().sort) startQuery({ sort });
        },
        setFilters: (filters) => startQuery({ filters }),
        setInteracting(interacting) {
          if (interacting === get().interacting) return;
          set({ interacting });
          if (!interacting && get().pendingUpdates > 0) get().applyUpdates();
        },
        applyUpdates() {
          set({ pendingUpdates: 0 });
          loader.refresh();
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
        prefetch: () => early.start(windowInput(get(), 0, PAGE_SIZE)),
        showRange: (range) => loader.showRange(range),
        refresh: () => loader.refresh(),
        reload() {
          // Rows already on screen are not a new paint to measure.
          if (get().pages.size === 0) set({ askedAt: performance.now() });
          loader.refresh();
        },
        rowsPainted: () => set({ askedAt: null }),
        selectedRow() {
          const { pages, selectedId } = get();
          if (!selectedId) return undefined;
          const at = indexOfRow(pages, selectedId);
          return at >= 0 ? rowAt(pages, at) : undefined;
        },
        pushed(row) {
          const state = get();
          const patched = patchPushedRow(state, row);
          // A row that comes, goes or needs main to place it moves others: not under a working reviewer.
          if (state.interacting && (!patched || patched.total !== state.total)) {
            const inPlace = mapRows(state.pages, (held) =>
              held.id === row.id ? keepClaim(held, row) : undefined,
            );
            set((now) => ({
              pendingUpdates: now.pendingUpdates + 1,
              ...(inPlace ? { pages: inPlace } : {}),
            }));
            return;
          }
          if (!patched) {
            loader.refresh();
            return;
          }
          set((now) => ({ ...patched, ...followSelection(patched.pages, now) }));
          loader.patched();
        },
        claimChanged(change) {
          const patched = patchClaim(get(), change);
          if (patched === 'ask') refreshOrHold();
          else if (patched) set({ pages: patched });
        },
        async add(ref) {
          const customer = await api.customers.add({ ref: ref.trim() });
          set({ selectedId: customer.id, selectionPending: false });
          loader.refresh();
          return customer;
        },
        async loadImportAvailability() {
          try {
            set({ importAvailability: await api.customers.importAvailability() });
          } catch (error) {
            set({ importAvailability: { available: false, reason: messageOf(error) } });
          }
        },
      };
    },
    {
      name: 'vetted.queue',
      storage: createJSONStorage(() => sessionStorage),
      // The reviewer's place in the queue survives a reload of the window; rows are always asked for afresh.
      partialize: ({ section, search, selectedId, sort, filters }) => ({
        section,
        search,
        selectedId,
        sort,
        filters,
      }),
    },
  ),
);

/** What main is asked for one page of the current list. */
function windowInput(state: QueueState, offset: number, limit: number): QueueWindowInput {
  const { section, search, sort, filters, pages } = state;
  const after = afterRow(pages, offset, sort);
  return { section, search, offset, limit, sort, filters, ...(after ? { after } : {}) };
}

/** After rows change: the selection's index, or the row a pending move landed on. */
function followSelection(pages: Pages<QueueRow>, state: QueueState): Partial<QueueState> {
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
