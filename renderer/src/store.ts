import { create } from 'zustand';
import type { AppInfo } from '#contract/channels.ts';
import { VettedError } from '#contract/errors.ts';
import type { ServiceStatus } from '#contract/settings.ts';
import { api } from './api.ts';
import {
  currentHash,
  formatRoute,
  onAddressChange,
  parseRoute,
  type Route,
  type SectionFilter,
  type View,
  writeHash,
} from './route.ts';
import { sharedWatch } from './shared/data/watch.ts';

export type { View } from './route.ts';

interface AppState {
  info: AppInfo | null;
  service: ServiceStatus | null;
  /** Set when main cannot be reached or refuses to start: shown instead of the app. */
  problem: string | null;
  view: View;
  /** The case open in the queue's right pane. */
  customerId: string | null;
  /** The queue's section, as the address names it. */
  section: SectionFilter;
  /** The draft the draft view opens; null for a new customer's empty form. */
  draftId: string | null;
  /** Counts the draft forms opened: each opening is a fresh form, even of the same draft. */
  draftOpening: number;
  show(view: View): void;
  /** Opens a case in the queue's right pane (in `section`, or the whole queue), with its own address. */
  openCustomer(id: string, section?: SectionFilter): void;
  /** Goes to a place, as a new entry in the history (back returns) unless `replace`. */
  navigate(route: Route, options?: { replace?: boolean }): void;
  /** A draft (or, with null, a new customer's empty form). */
  openDraft(id: string | null): void;
  load(): Promise<void>;
  /** The app is on screen (App watches): the connection's state follows main's reports. */
  watch(): () => void;
}

export const useAppStore = create<AppState>((set, get) => ({
  info: null,
  service: null,
  problem: null,
  ...fromRoute(parseRoute(currentHash())),
  draftId: null,
  draftOpening: 0,
  // "New customer" in the navigation always starts an empty form.
  show: (view) => (view === 'draft' ? get().openDraft(null) : get().navigate({ ...current(get()), view })),
  openCustomer: (id, section) => get().navigate({ view: 'queue', section: section ?? 'all', customerId: id }),
  openDraft: (id) => {
    set((state) => ({ draftId: id, draftOpening: state.draftOpening + 1 }));
    get().navigate({ view: 'draft' });
  },
  navigate(route, options) {
    set(fromRoute({ ...current(get()), ...route }));
    writeHash(formatRoute(current(get())), options?.replace);
  },
  async load() {
    try {
      const [info, service] = await Promise.all([api.app.info(), api.service.status()]);
      set({ info, service, problem: null });
    } catch (error) {
      set({ problem: error instanceof VettedError ? error.message : 'Vetted could not start.' });
    }
  },
  watch: sharedWatch(() => [
    api.on('service.status', (service) => set({ service })),
    // A native notification was clicked: the window opens its customer, as a clicked toast does.
    api.on('notification.clicked', ({ customerId }) => get().openCustomer(customerId)),
    // A case link opened (vetted://case/<id>): that case, whatever screen was open.
    api.on('case.open', ({ customerId }) => get().openCustomer(customerId)),
    // Back, forward, or an address typed or pasted: the app goes where it names.
    onAddressChange(() => set(fromRoute(parseRoute(currentHash())))),
  ]),
}));

function fromRoute(route: Route): Pick<AppState, 'view' | 'customerId' | 'section'> {
  return { view: route.view, customerId: route.customerId ?? null, section: route.section ?? 'all' };
}

function current(state: AppState): Route {
  return { view: state.view, section: state.section, customerId: state.customerId };
}
