import { create } from 'zustand';
import type { AppInfo } from '../../contract/channels.ts';
import { VettedError } from '../../contract/errors.ts';
import type { ServiceStatus } from '../../contract/settings.ts';
import { api } from './api.ts';
import { sharedWatch } from './ui/watch.ts';

export type View = 'queue' | 'customer' | 'draft' | 'events' | 'webhooks' | 'audit' | 'settings' | 'sandbox';

interface AppState {
  info: AppInfo | null;
  service: ServiceStatus | null;
  /** Set when main cannot be reached or refuses to start: shown instead of the app. */
  problem: string | null;
  view: View;
  /** The customer the customer view shows. */
  customerId: string | null;
  /** The draft the draft view opens; null for a new customer's empty form. */
  draftId: string | null;
  /** Counts the draft forms opened: each opening is a fresh form, even of the same draft. */
  draftOpening: number;
  show(view: View): void;
  openCustomer(id: string): void;
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
  view: 'queue',
  customerId: null,
  draftId: null,
  draftOpening: 0,
  // "New customer" in the navigation always starts an empty form.
  show: (view) => (view === 'draft' ? get().openDraft(null) : set({ view })),
  openCustomer: (id) => set({ view: 'customer', customerId: id }),
  openDraft: (id) => set((state) => ({ view: 'draft', draftId: id, draftOpening: state.draftOpening + 1 })),
  async load() {
    try {
      const [info, service] = await Promise.all([api.app.info(), api.service.status()]);
      set({ info, service, problem: null });
    } catch (error) {
      set({ problem: error instanceof VettedError ? error.message : 'Vetted could not start.' });
    }
  },
  watch: sharedWatch(() => api.on('service.status', (service) => set({ service }))),
}));
