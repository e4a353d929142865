import { z } from 'zod';

/**
 * Settings → Team, on joining: the desk offers to bring what it did on its own into the team (its notes and
 * audit entries, the customers the team does not know yet, its drafts waiting to be sent), each exactly once
 * however often the join is repeated or interrupted; and what leaving kept on the desk.
 */

const Count = z.number().int().nonnegative();

/** What bringing would take into the team: this desk's own work, counted. */
export const HistoryOfferSchema = z.object({
  notes: Count,
  auditEntries: Count,
  customers: Count,
  /** Submitted and waiting to be sent: they go to the team outbox with their Idempotency-Keys. */
  drafts: Count,
});
export type HistoryOffer = z.infer<typeof HistoryOfferSchema>;

/** `brought` now; `already` in the team before (an earlier, perhaps interrupted, run, or the team knew it). */
const Outcome = z.object({ brought: Count, already: Count });

export const HistoryBroughtSchema = z.object({
  notes: Outcome,
  auditEntries: Outcome,
  customers: Outcome,
  /** `waiting`: the store stopped answering; they move when the desk starts on the team. */
  drafts: z.object({ moved: Count, waiting: Count }),
});
export type HistoryBrought = z.infer<typeof HistoryBroughtSchema>;

/** Pushed while bringing: items handled of the total. */
export const HistoryProgressSchema = z.object({ done: Count, total: Count });
export type HistoryProgress = z.infer<typeof HistoryProgressSchema>;

export const teamHistoryChannels = {
  /** What this desk would bring into the team it joined (its own notes, audit entries, customers, drafts). */
  'team.historyOffer': { input: z.undefined(), output: HistoryOfferSchema },
  /** Brings it, exactly once by each item's origin; repeat it after an interruption to finish. */
  'team.bringHistory': { input: z.undefined(), output: HistoryBroughtSchema },
} as const;

export const teamHistoryEvents = {
  'team.historyProgress': HistoryProgressSchema,
} as const;

/** What leaving kept on the desk, read-only: this reviewer's audit entries copied now, their notes kept. */
export const KeptCopySchema = z.object({
  auditEntries: Count,
  notes: Count,
  /** Why nothing could be copied (the store did not answer): in words. */
  problem: z.string().optional(),
});
export type KeptCopy = z.infer<typeof KeptCopySchema>;
