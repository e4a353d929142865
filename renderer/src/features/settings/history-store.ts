import { create } from 'zustand';
import type { HistoryBrought, HistoryOffer, HistoryProgress } from '#contract/team-history.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

/** Joining a team: what this desk's own history is, and bringing it in (once: main keys every item). */
interface HistoryState {
  offer: HistoryOffer | null;
  /** Whether to bring it on joining: yes unless the reviewer says otherwise. */
  wanted: boolean;
  bringing: boolean;
  progress: HistoryProgress | null;
  brought: HistoryBrought | null;
  problem: string | null;
  loadOffer(): Promise<void>;
  setWanted(wanted: boolean): void;
  bring(): Promise<void>;
  watch(): () => void;
}

export const useHistoryStore = create<HistoryState>((set, get) => ({
  offer: null,
  wanted: true,
  bringing: false,
  progress: null,
  brought: null,
  problem: null,
  async loadOffer() {
    try {
      set({ offer: await api.team.historyOffer() });
    } catch (error) {
      set({ problem: error instanceof Error ? error.message : String(error) });
    }
  },
  setWanted: (wanted) => set({ wanted }),
  async bring() {
    if (get().bringing) return;
    set({ bringing: true, problem: null, progress: null });
    try {
      set({ brought: await api.team.bringHistory() });
    } catch (error) {
      set({ problem: error instanceof Error ? error.message : String(error) });
    } finally {
      set({ bringing: false });
    }
  },
  watch: sharedWatch(() => api.on('team.historyProgress', (progress) => set({ progress }))),
}));

export const offerSize = (offer: HistoryOffer): number =>
  offer.notes + offer.auditEntries + offer.customers + offer.drafts;

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "3 notes, 12 audit entries, 2 customers and 1 draft waiting to be sent". */
export function offerText(offer: HistoryOffer): string {
  const parts = [
    plural(offer.notes, 'note', 'notes'),
    plural(offer.auditEntries, 'audit entry', 'audit entries'),
    plural(offer.customers, 'customer', 'customers'),
    `${plural(offer.drafts, 'draft', 'drafts')} waiting to be sent`,
  ];
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** The result line: what came over now, and what was there already from an earlier run. */
export function broughtText(brought: HistoryBrought): string {
  const now = offerText({
    notes: brought.notes.brought,
    auditEntries: brought.auditEntries.brought,
    customers: brought.customers.brought,
    drafts: brought.drafts.moved,
  });
  const already = brought.notes.already + brought.auditEntries.already + brought.customers.already;
  const waiting = brought.drafts.waiting
    ? ` ${plural(brought.drafts.waiting, 'draft waits', 'drafts wait')} for the team store and will move when Vetted restarts.`
    : '';
  return `Brought into the team: ${now}.${already ? ` ${plural(already, 'item was', 'items were')} there already and ${already === 1 ? 'was' : 'were'} not brought again.` : ''}${waiting}`;
}
