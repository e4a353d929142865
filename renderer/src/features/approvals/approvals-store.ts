import { create } from 'zustand';
import type { Approval, ApprovalDetail } from '#contract/approvals.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

/** Still to be decided, or approved and not yet done: what the queue's section lists. */
export const isOpen = (approval: Approval) => approval.state === 'pending' || approval.state === 'approved';

interface ApprovalsState {
  /** What waits (the queue's "Waiting for approval"); null until read. */
  open: Approval[] | null;
  /** Each case's latest approval, as its panel shows it. */
  byCase: Record<string, Approval | null>;
  problem: string | null;
  load(): Promise<void>;
  loadCase(customerId: string): Promise<void>;
  /** What will be sent; with `ssn`, also whether the SSN typed from the document is the one it sends. */
  detail(id: string, ssn?: string): Promise<ApprovalDetail>;
  decide(id: string, approve: boolean, note: string): Promise<Approval>;
  cancel(id: string): Promise<Approval>;
  /** Changes from any desk keep the section and the panels current while one is on screen. */
  watch(): () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useApprovalsStore = create<ApprovalsState>((set, get) => {
  const changed = (approval: Approval) =>
    set((state) => ({
      open: state.open
        ? [...state.open.filter((a) => a.id !== approval.id), ...(isOpen(approval) ? [approval] : [])].sort(
            (a, b) => a.requestedAt.localeCompare(b.requestedAt),
          )
        : state.open,
      byCase: approval.customerId ? { ...state.byCase, [approval.customerId]: approval } : state.byCase,
    }));
  return {
    open: null,
    byCase: {},
    problem: null,
    async load() {
      try {
        set({ open: await api.approvals.list(), problem: null });
      } catch (error) {
        set({ problem: `What waits for approval could not be read: ${messageOf(error)}` });
      }
    },
    async loadCase(customerId) {
      const { approval } = await api.approvals.forCase({ customerId });
      set((state) => ({ byCase: { ...state.byCase, [customerId]: approval } }));
    },
    detail: (id, ssn) => (ssn ? api.approvals.checkSsn({ id, ssn }) : api.approvals.get({ id })),
    async decide(id, approve, note) {
      const approval = await (approve ? api.approvals.approve : api.approvals.reject)({ id, note });
      changed(approval);
      return approval;
    },
    async cancel(id) {
      const approval = await api.approvals.cancel({ id });
      changed(approval);
      return approval;
    },
    watch: sharedWatch(() => {
      void get().load();
      return api.on('approvals.changed', changed);
    }),
  };
});
