// Roles and the team's settings on a team's desk: the role is read from the store (set-role holds at once),
// the settings too. A lead's change to a setting goes through the store's function, which checks the role
// again; the claim store appends its audit entry in the same transaction.
import { allowedTo, type TeamSettings, TeamSettingsSchema } from '#contract/roles.ts';
import type { Roles, TeamSettingsAccess } from '#main/features/team-interfaces/claims.ts';
import { type ClaimStore, SETTING_NAMES } from './claim-store.ts';

export function teamRoles(store: ClaimStore, login: string): Roles {
  return {
    async me() {
      // The store's owner is its administrator, allowed everything: a lead, as far as the desk goes.
      const role = (await store.role()) === 'reviewer' ? 'reviewer' : 'lead';
      return { mode: 'team', reviewer: login, role, claims: true, can: allowedTo(role) };
    },
  };
}

export function teamSettings(store: ClaimStore): TeamSettingsAccess {
  const get = async (): Promise<TeamSettings> => {
    const stored = await store.settings();
    return TeamSettingsSchema.parse({
      claimIdleMinutes: stored.get(SETTING_NAMES.claimIdleMinutes),
      fourEyes: stored.get(SETTING_NAMES.fourEyes),
      lockIdleMaxMinutes: stored.get(SETTING_NAMES.lockIdleMaxMinutes),
    });
  };
  return {
    get,
    async update(patch) {
      for (const [key, value] of Object.entries(patch) as [keyof TeamSettings, unknown][]) {
        if (value !== undefined) await store.setSetting(SETTING_NAMES[key], value);
      }
      return get();
    },
  };
}
