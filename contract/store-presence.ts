import { z } from 'zod';

/**
 * How long the team store may be away before the main screen says so. A failover or a restarted database is
 * over in seconds (about 6 s measured, bench/README.md) and the desk catches up by itself: a notice for each
 * would come and go before it could be read, and teach reviewers to ignore it. Past this, a reviewer about
 * to write a note or take a case should know before trying.
 */
export const STORE_AWAY_NOTICE_AFTER_MS = 10_000;

/**
 * Whether this desk's team store answers, for the main screen: `awaySince` is when the desk lost its session
 * with the store (epoch ms, main's clock), null while it answers (and always on a solo desk). The screen says
 * so in words only once the store has been away STORE_AWAY_NOTICE_AFTER_MS.
 */
export const StorePresenceSchema = z.object({
  awaySince: z.number().int().nonnegative().nullable(),
});
export type StorePresence = z.infer<typeof StorePresenceSchema>;

export const storePresenceChannels = {
  'team.presence': { input: z.undefined(), output: StorePresenceSchema },
} as const;

export const storePresenceEvents = {
  /** The store went away or answers again: pushed on each change, never on a timer. */
  'team.presence': StorePresenceSchema,
} as const;
