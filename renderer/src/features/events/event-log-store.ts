import { create } from 'zustand';
import type { EventDetail } from '#contract/event-detail.ts';
import type { EventRow, EventWindowInput } from '#contract/webhooks.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';
import { windowedLoader } from '#renderer/shared/windowed/windowed-loader.ts';
import { mapRows, type Pages, type Range } from '#renderer/shared/windowed/windowed-pages.ts';
import { useAppStore } from '#renderer/store.ts';

export type EventFilter = Pick<EventWindowInput, 'topic' | 'customerId'>;

interface EventLogState {
  /** '' for every topic. */
  topic: string;
  /** As typed: the filter uses it trimmed, '' for every customer. */
  customerId: string;
  /** An event to point out once the log shows it (the customer's timeline links to its events). */
  highlightId: string | null;
  pages: Pages<EventRow>;
  /** Events matching the filter (the scroll height); null until main first answers. */
  total: number | null;
  /** Every topic received, for the topic filter. */
  topics: string[];
  /** Bumped when the filter changes: the list goes back to the top. */
  queryVersion: number;
  problem: string | null;
  /** The event opened in full: its detail once main answers, or why it could not be had. */
  detail: { id: string; data: EventDetail | null; problem: string | null } | null;

  setTopic(topic: string): void;
  setCustomerId(customerId: string): void;
  clearFilter(): void;
  /** Opens the log on one customer's events (from its timeline), pointing out one of them. */
  showCustomerEvents(customerId: string, eventId?: string): void;
  openDetail(id: string): Promise<void>;
  closeDetail(): void;
  /** The list reports which rows are on screen; the store fetches what they need and drops the rest. */
  showRange(range: Range): void;
  /** The screen is open: pushed events keep it current. Returns the function that stops watching. */
  watch(): () => void;
  /** What the filter shows (all of it, not only the rows held) as JSON Lines, and how many events. */
  exportShown(): Promise<{ jsonl: string; count: number; filter: EventFilter }>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The filter as the contract takes it: no empty strings. */
export function filterOf({ topic, customerId }: Pick<EventLogState, 'topic' | 'customerId'>): EventFilter {
  const customer = customerId.trim();
  return { ...(topic ? { topic } : {}), ...(customer ? { customerId: customer } : {}) };
}

export const useEventLogStore = create<EventLogState>((set, get) => {
  const loader = windowedLoader({
    fetch: (offset, limit) => api.events.window({ ...filterOf(get()), offset, limit }),
    read: () => get(),
    write: (pages, window) =>
      set(window ? { pages, total: window.total, topics: window.topics, problem: null } : { pages }),
    failed: (error) => set({ problem: `The event log could not be loaded: ${messageOf(error)}` }),
  });
  let watched = false;

  /** Rows held are patched where they are; anything else (a new event) is a refresh of what is on screen. */
  const patch = (change: (row: EventRow) => EventRow | undefined, orElse: () => void) => {
    const pages = mapRows(get().pages, change);
    if (!pages) return orElse();
    set({ pages });
    loader.patched();
  };

  /** A new filter: what was held belonged to another one. */
  const startQuery = (change: Partial<EventLogState>) => {
    loader.newQuery();
    set((state) => ({ ...change, pages: new Map(), total: null, queryVersion: state.queryVersion + 1 }));
    if (watched) loader.ensureVisible();
  };

  const listen = sharedWatch(() => {
    watched = true;
    loader.refresh();
    return [
      // A duplicate of an event held replaces its row (its count grew); a new one is asked for.
      api.on('event.received', (event) =>
        patch((row) => (row.id === event.id ? event : undefined), loader.refresh),
      ),
      // A customer Vetted learnt of (from an event, often) now has a name to show in its rows.
      api.on('customer.updated', (customer) =>
        patch(
          (row) =>
            row.customerId === customer.id && row.customerName !== customer.name
              ? { ...row, customerName: customer.name }
              : undefined,
          () => {},
        ),
      ),
      () => {
        watched = false;
      },
    ];
  });

  return {
    topic: '',
    customerId: '',
    highlightId: null,
    pages: new Map(),
    total: null,
    topics: [],
    queryVersion: 0,
    problem: null,
    detail: null,

    watch: listen,
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
    async openDetail(id) {
      set({ detail: { id, data: null, problem: null } });
      try {
        const data = await api.events.detail({ id });
        // Another event may have been opened meanwhile: only the one still open takes the answer.
        if (get().detail?.id === id) set({ detail: { id, data, problem: null } });
      } catch (error) {
        if (get().detail?.id === id) {
          set({ detail: { id, data: null, problem: `This event could not be opened: ${messageOf(error)}` } });
        }
      }
    },
    closeDetail: () => set({ detail: null }),
    showRange: (range) => loader.showRange(range),
    async exportShown() {
      const filter = filterOf(get());
      return { ...(await api.events.export(filter)), filter };
    },
  };
});
