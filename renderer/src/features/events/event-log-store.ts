import { create } from 'zustand';
import type { EventRow, EventWindowInput } from '../../../../contract/webhooks.ts';
import { api } from '../../api.ts';
import { useAppStore } from '../../store.ts';
import { offsetsAround, PAGE_SIZE, type Range } from '../queue/window-cache.ts';

/** The log's pages, keyed by offset like the queue's (`window-cache.ts`), and the load each came from. */
export type EventPages = ReadonlyMap<number, { rows: EventRow[]; generation: number }>;

export type EventFilter = Pick<EventWindowInput, 'topic' | 'customerId'>;

interface EventLogState {
  /** '' for every topic. */
  topic: string;
  /** As typed: the filter uses it trimmed, '' for every customer. */
  customerId: string;
  /** An event to point out once the log shows it (the customer's timeline links to its events). */
  highlightId: string | null;
  pages: EventPages;
  /** Events matching the filter (the scroll height); null until main first answers. */
  total: number | null;
  /** Every topic received, for the topic filter. */
  topics: string[];
  /** Bumped when the filter changes: the list goes back to the top. */
  queryVersion: number;
  problem: string | null;

  setTopic(topic: string): void;
  setCustomerId(customerId: string): void;
  clearFilter(): void;
  /** Opens the log on one customer's events (from its timeline), pointing out one of them. */
  showCustomerEvents(customerId: string, eventId?: string): void;
  /** The list reports which rows are on screen; the store fetches what they need and drops the rest. */
  showRange(range: Range): void;
  /** The screen is open: pushed events keep it current. */
  open(): void;
  close(): void;
  /** An event was recorded, a duplicate counted or a customer changed: while open, the rows on screen are asked for again. */
  changed(): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The filter as the contract takes it: no empty strings. */
export function filterOf({ topic, customerId }: Pick<EventLogState, 'topic' | 'customerId'>): EventFilter {
  const customer = customerId.trim();
  return { ...(topic ? { topic } : {}), ...(customer ? { customerId: customer } : {}) };
}

export const rowAt = (pages: EventPages, index: number): EventRow | undefined =>
  pages.get(index - (index % PAGE_SIZE))?.rows[index % PAGE_SIZE];

export const useEventLogStore = create<EventLogState>((set, get) => {
  /** Every load belongs to a generation; a new filter or a refresh starts the next one. */
  let generation = 0;
  let visible: Range = { start: 0, end: PAGE_SIZE - 1 };
  const inFlight = new Map<number, number>();
  let refreshWaiting = false;
  let active = false;

  const keepAround = (pages: EventPages, total: number) => {
    const wanted = new Set(offsetsAround(visible, total));
    return new Map([...pages].filter(([offset]) => wanted.has(offset)));
  };

  const ensureVisible = () => {
    const { pages, total } = get();
    // Even an empty log asks for its first page: that answer says whether it is still empty.
    for (const offset of offsetsAround(visible, Math.max(total ?? visible.end + 1, visible.start + 1))) {
      if (pages.get(offset)?.generation === generation || inFlight.get(offset) === generation) continue;
      load(offset);
    }
  };

  const load = (offset: number) => {
    const loading = generation;
    inFlight.set(offset, loading);
    api.events
      .window({ ...filterOf(get()), offset, limit: PAGE_SIZE })
      .then((window) => {
        if (loading !== generation) return;
        set((state) => ({
          pages: keepAround(
            new Map(state.pages).set(offset, { rows: window.rows, generation: loading }),
            window.total,
          ),
          total: window.total,
          topics: window.topics,
          problem: null,
        }));
        ensureVisible();
      })
      .catch((error: unknown) => {
        if (loading === generation)
          set({ problem: `The event log could not be loaded: ${messageOf(error)}` });
      })
      .finally(() => {
        if (inFlight.get(offset) === loading) inFlight.delete(offset);
        if (inFlight.size === 0 && refreshWaiting) {
          refreshWaiting = false;
          refresh();
        }
      });
  };

  /** Asks again for the rows on screen, keeping them shown until the answer comes. */
  const refresh = () => {
    // Events can arrive by the thousand: one load at a time, then one more.
    if (inFlight.size > 0) {
      refreshWaiting = true;
      return;
    }
    generation++;
    ensureVisible();
  };

  /** A new filter: what was held belonged to another one. */
  const startQuery = (change: Partial<EventLogState>) => {
    generation++;
    visible = { start: 0, end: visible.end - visible.start };
    set((state) => ({ ...change, pages: new Map(), total: null, queryVersion: state.queryVersion + 1 }));
    if (active) ensureVisible();
  };

  return {
    topic: '',
    customerId: '',
    highlightId: null,
    pages: new Map(),
    total: null,
    topics: [],
    queryVersion: 0,
    problem: null,

    setTopic: (topic) => {
      if (topic !== get().topic) startQuery({ topic, highlightId: null });
    },
    setCustomerId: (customerId) => {
      if (customerId !== get().customerId) startQuery({ customerId, highlightId: null });
    },
    clearFilter: () => startQuery({ topic: '', customerId: '', highlightId: null }),
    showCustomerEvents(customerId, eventId) {
      startQuery({ topic: '', customerId, highlightId: eventId ?? null });
      useAppStore.getState().show('events');
    },
    showRange(range) {
      if (range.start === visible.start && range.end === visible.end) return;
      visible = range;
      const { pages, total } = get();
      if (total !== null) set({ pages: keepAround(pages, total) });
      ensureVisible();
    },
    open() {
      active = true;
      refresh();
    },
    close() {
      active = false;
    },
    changed() {
      if (active) refresh();
    },
  };
});

api.on('event.received', () => useEventLogStore.getState().changed());
// A customer Vetted learnt of (from an event, often) now has a name to show in its rows.
api.on('customer.updated', () => useEventLogStore.getState().changed());
