import { z } from 'zod';
import { IdleMinutesSchema } from './lock.ts';

/**
 * Team mode's roles: each reviewer is a reviewer or a lead (the administrator's `set-role`). A lead may do what
 * LEAD_ACTIONS lists; the desk refuses the others in LEAD_ONLY's words before asking the store, and the store
 * refuses them too. A solo desk's reviewer is their own lead. Also the team's settings, which a lead changes.
 */

export const LEAD_ACTIONS = [
  'reassign',
  'takeOver',
  'approve',
  'exportNames',
  'purgeImages',
  'changeTeamSettings',
  'viewTeam',
] as const;
export const LeadActionSchema = z.enum(LEAD_ACTIONS);
export type LeadAction = z.infer<typeof LeadActionSchema>;

/** Why a reviewer may not: shown beside what the role cannot do, and the words of the refusal. */
export const LEAD_ONLY: Record<LeadAction, string> = {
  reassign: 'Only a lead can reassign a case to another reviewer.',
  takeOver: 'Only a lead can take over a case another reviewer holds.',
  approve: 'Only a lead can approve an action waiting for a second pair of eyes.',
  exportNames: 'Only a lead can export the queue with names in full.',
  purgeImages: 'Only a lead can remove a stored document image.',
  changeTeamSettings: 'Only a lead can change the team’s settings.',
  viewTeam: 'Only a lead can see the Team screen: who is online, who holds what and how the queue moves.',
};

/** Whom a reviewer asks. Words for a reviewer: the administrator's commands stay in docs/team-admin.md. */
export const ASK_A_LEAD = 'Ask a lead of your team (your administrator makes leads).';

export const TeamRoleSchema = z.enum(['reviewer', 'lead']);
export type TeamRole = z.infer<typeof TeamRoleSchema>;

/** What a role allows: a lead every lead action, a reviewer none. */
export const allowedTo = (role: TeamRole): Record<LeadAction, boolean> =>
  Object.fromEntries(LEAD_ACTIONS.map((action) => [action, role === 'lead'])) as Record<LeadAction, boolean>;

export const TeamMeSchema = z.object({
  mode: z.enum(['solo', 'team']),
  /** Who acts at this desk: the database login in a team, the computer's user when solo. */
  reviewer: z.string(),
  role: TeamRoleSchema,
  /** Whether cases are claimed here (team mode); a solo desk holds every case. */
  claims: z.boolean(),
  /** What the role allows; for the others, LEAD_ONLY says why not. */
  can: z.record(LeadActionSchema, z.boolean()),
});
export type TeamMe = z.infer<typeof TeamMeSchema>;

export const TeamSettingsSchema = z.object({
  /** A claim ends after this many minutes without an action by its holder (audited). */
  claimIdleMinutes: z.number().int().min(1).max(1440),
  /** Four eyes: which actions wait for a lead's approval, and how many hours one waits before it expires. */
  fourEyes: z.strictObject({
    retry: z.boolean(),
    exportNames: z.boolean(),
    expiryHours: z.number().int().min(1).max(720),
  }),
  /** The idle lock: the most minutes without input any desk of the team stays open (a desk may choose fewer). */
  lockIdleMaxMinutes: IdleMinutesSchema,
});
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

export const TeamSettingsPatchSchema = TeamSettingsSchema.partial().strict();

export const roleChannels = {
  /** This desk's reviewer, their role and what it allows. */
  'team.me': { input: z.undefined(), output: TeamMeSchema },
  'team.settings': { input: z.undefined(), output: TeamSettingsSchema },
  /** A lead's (audited); a solo desk has no team settings and says so. */
  'team.updateSettings': { input: TeamSettingsPatchSchema, output: TeamSettingsSchema },
} as const;

export const roleEvents = {
  /** The reviewer's role changed (the administrator's set-role): what the desk shows follows. */
  'team.me': TeamMeSchema,
} as const;
