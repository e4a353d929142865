import { z } from 'zod';
import { KeptCopySchema } from './team-history.ts';

/**
 * Settings → Team: whether this desk works alone (its own journal) or on a team store (PostgreSQL), and
 * joining or leaving a team with a join code. Never a password or the team key in any answer: the join code
 * and the password go in, only where and as whom come out.
 */

export const TeamStoreStateSchema = z.enum(['connected', 'unreachable', 'refused', 'not-joined']);
export type TeamStoreState = z.infer<typeof TeamStoreStateSchema>;

/** Whether a hub holds the team's webhook listener role right now ('unknown' when the store cannot say). */
export const TeamHubStateSchema = z.enum(['listening', 'no hub', 'unknown']);
export type TeamHubState = z.infer<typeof TeamHubStateSchema>;

export const TeamStatusSchema = z.object({
  mode: z.enum(['solo', 'team']),
  team: z
    .object({
      teamId: z.uuid(),
      /** The reviewer's database login: the name the team store stamps on their audit rows and notes. */
      reviewer: z.string(),
      host: z.string(),
      port: z.number().int(),
      database: z.string(),
      sslmode: z.enum(['disable', 'verify-full']),
    })
    .optional(),
  store: TeamStoreStateSchema,
  /** Why the store is unreachable or refused, in words. */
  problem: z.string().optional(),
  hub: TeamHubStateSchema,
  /** Joined or left since this desk started: the change takes effect when Vetted restarts. */
  restartNeeded: z.boolean(),
  /** After leaving: what the desk kept, read-only, of this reviewer's work in the team. */
  kept: KeptCopySchema.optional(),
});
export type TeamStatus = z.infer<typeof TeamStatusSchema>;

export const JoinTeamInputSchema = z.strictObject({
  /** `vetted-join-1.…` as `npm run team -- add-reviewer` printed it (wrapped lines are fine). */
  // A code may carry a CA of up to 64,000 characters, which base64 makes a third longer.
  code: z.string().trim().min(1, 'Paste the join code your administrator gave you.').max(100_000),
  password: z.string().min(1, 'Type your database password.').max(1024),
});
export type JoinTeamInput = z.infer<typeof JoinTeamInputSchema>;

export const TeamPasswordInputSchema = z.strictObject({
  password: JoinTeamInputSchema.shape.password,
});
export type TeamPasswordInput = z.infer<typeof TeamPasswordInputSchema>;

export const teamChannels = {
  'team.status': { input: z.undefined(), output: TeamStatusSchema },
  /** Checks the code, the password and the key against the store, then keeps them; refusals change nothing. */
  'team.join': { input: JoinTeamInputSchema, output: TeamStatusSchema },
  /** Forgets the team's key, the password and the connection; the local journal stays. */
  'team.leave': { input: z.undefined(), output: TeamStatusSchema },
  /** The administrator gave a new database password (`team reset-password`): checked, then kept. */
  'team.password': { input: TeamPasswordInputSchema, output: TeamStatusSchema },
} as const;

export const teamEvents = {
  /** After a join or a leave, so every open window shows the same. */
  'team.status': TeamStatusSchema,
} as const;
