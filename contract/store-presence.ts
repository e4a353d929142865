import { z } from 'zod';

/**
 * Whether this desk's team store answers, for the main screen: `awaySince` is when the desk lost its session
 * with the store (epoch ms, main's clock), null while it answers (and always on a solo desk). The screen says
 * so in words only once the store has been away a while (renderer: STORE_AWAY_NOTICE_AFTER_MS).
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
