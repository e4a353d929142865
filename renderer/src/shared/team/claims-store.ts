import { create } from 'zustand';
import type { ChannelOutput } from '#contract/channels.ts';
import type { CaseClaim, Claim, ClaimCounts } from '#contract/claims.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '../data/watch.ts';

export type TeamReviewer = ChannelOutput<'claims.reviewers'>[number];

interface ClaimsState {
  /** The claims this desk knows of, by case: asked for when a case opens, then kept live. */
  byCase: Record<string, Claim | null>;
  /** The queue's work by who holds it; null until main first answers. */
  counts: ClaimCounts | null;
  reviewers: TeamReviewer[];
  /** A take or a release on its way to main. */
  busy: boolean;
  /** Main's refusal of the last take or release, in its words, and the case it was about. */
  problem: { customerId: string; text: string } | null;
  /** Asks main who holds the case now (the case panel opened it). */
  follow(customerId: string): Promise<void>;
  take(customerId: string): Promise<boolean>;
  release(customerId: string): Promise<boolean>;
  /** A lead's; a refusal is thrown, for the dialog to show beside its field. */
  reassign(customerId: string, to: string, note: string): Promise<void>;
  /** A lead's; a refusal is thrown, for the dialog to show. */
  takeOver(customerId: string, reason: string): Promise<void>;
  /** Takes the unclaimed case that has waited longest; null when none waits. Refusals are thrown. */
  next(): Promise<Claim | null>;
  loadCounts(): Promise<void>;
  loadReviewers(): Promise<void>;
  /** Applies a change pushed by main (`claims.changed`). */
  changed(change: CaseClaim): void;
  /** Claims and counts follow every desk's changes while something on screen shows them. */
  watch(): () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useClaimsStore = create<ClaimsState>((set, get) => {
  const answered = ({ customerId, claim }: CaseClaim) =>
    set((state) => ({ byCase: { ...state.byCase, [customerId]: claim } }));

  /** One take or release: its answer applied, or its refusal kept to be shown. */
  const change = async (customerId: string, call: () => Promise<CaseClaim>): Promise<boolean> => {
    set({ busy: true, problem: null });
    try {
      answered(await call());
      return true;
    } catch (error) {
      set({ problem: { customerId, text: messageOf(error) } });
      return false;
    } finally {
      set({ busy: false });
    }
  };

  // Changes come in bursts (a lead reassigning, an expiry sweep): one count in flight, one more after it.
  let counting: Promise<void> | null = null;
  let countAgain = false;
  const count = async () => {
    do {
      countAgain = false;
      try {
        set({ counts: await api.claims.counts() });
      } catch {
        // The counts wait for the next change; the queue itself does not depend on them.
      }
    } while (countAgain);
  };

  return {
    byCase: {},
    counts: null,
    reviewers: [],
    busy: false,
    problem: null,
    async follow(customerId) {
      try {
        answered(await api.claims.get({ customerId }));
      } catch {
        // The case panel shows its own problem loading the case; the claim follows its next change.
      }
    },
    take: (customerId) => change(customerId, () => api.claims.take({ customerId })),
    release: (customerId) => change(customerId, () => api.claims.release({ customerId })),
    async reassign(customerId, to, note) {
      answered(await api.claims.reassign({ customerId, to, note }));
    },
    async takeOver(customerId, reason) {
      answered(await api.claims.takeOver({ customerId, reason }));
    },
    async next() {
      const { claim } = await api.claims.next();
      if (claim) answered({ customerId: claim.customerId, claim });
      return claim;
    },
    loadCounts() {
      if (counting) {
        countAgain = true;
        return counting;
      }
      counting = count().finally(() => {
        counting = null;
      });
      return counting;
    },
    async loadReviewers() {
      try {
        set({ reviewers: await api.claims.reviewers() });
      } catch {
        // "By reviewer" and the reassign dialog wait for the next look.
      }
    },
    changed(change) {
      answered(change);
      void get().loadCounts();
    },
    watch: sharedWatch(() => [
      api.on('claims.changed', (change) => get().changed(change)),
      // A case going overdue, or a job that moved rows by the hundred, changes the counts too.
      api.on('queue.overdue', () => void get().loadCounts()),
      api.on('job.progress', (progress) => {
        if (progress.finished) void get().loadCounts();
      }),
    ]),
  };
});
