import { create } from 'zustand';
import type { CustomerDetail, PersonalData } from '#contract/customers.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

interface CustomerState {
  /** The customer on screen. */
  id: string | null;
  detail: CustomerDetail | null;
  problem: string | null;
  refreshing: boolean;
  /** Said once a refresh has been answered. */
  notice: string | null;
  open(id: string): Promise<void>;
  refresh(): Promise<void>;
  /** Main pushed a change for this customer: read it again (its history grew). */
  changed(id: string): Promise<void>;
  /** The customer view is on screen: main's pushed changes keep it current. Returns the function that stops watching. */
  watch(): () => void;
  /** Asks main for the personal data, with the reviewer's reason (main writes it to the audit log). */
  reveal(id: string, reason: string): Promise<PersonalData>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useCustomerStore = create<CustomerState>((set, get) => {
  /** Answers for a customer no longer on screen are dropped. */
  const showIfCurrent = (detail: CustomerDetail) => {
    if (get().id === detail.id) set({ detail, problem: null });
  };
  return {
    id: null,
    detail: null,
    problem: null,
    refreshing: false,
    notice: null,
    async open(id) {
      set((state) => ({
        id,
        detail: state.detail?.id === id ? state.detail : null,
        problem: null,
        notice: null,
      }));
      try {
        showIfCurrent(await api.customers.get({ id }));
      } catch (error) {
        if (get().id === id) set({ problem: `This customer could not be loaded: ${messageOf(error)}` });
      }
    },
    async refresh() {
      const { id } = get();
      if (!id) return;
      set({ refreshing: true, notice: null, problem: null });
      try {
        showIfCurrent(await api.customers.refresh({ id }));
        if (get().id === id) set({ notice: 'Refreshed from the service.' });
      } catch (error) {
        if (get().id === id) set({ problem: `The refresh failed: ${messageOf(error)}` });
      } finally {
        set({ refreshing: false });
      }
    },
    watch: sharedWatch(() => api.on('customer.updated', (row) => void get().changed(row.id))),
    reveal: (id, reason) => api.customers.reveal({ id, reason: reason.trim() }),
    async changed(id) {
      if (get().id !== id) return;
      try {
        showIfCurrent(await api.customers.get({ id }));
      } catch {
        // What is on screen stays; the next change or a Refresh tries again.
      }
    },
  };
});
