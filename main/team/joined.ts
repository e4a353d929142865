// The team a desk (or hub) joined, as its settings and vault hold it: the one place that reads them together.
import type { SettingsStore } from '../ground/config/settings-store.ts';
import type { TeamConnection } from '../ground/config/team-connection.ts';
import type { Vault } from '../ground/vault/vault.ts';
import { decodeTeamKey } from './team-key.ts';

/** The joined team, with the secrets the vault keeps for it. */
export interface JoinedTeam {
  teamId: string;
  connection: TeamConnection;
  password: string;
  teamKey: Buffer;
}

/** The joined team, or null in solo mode (or when the vault lost the secrets: Settings → Team says so). */
export function joinedTeam(
  settings: Pick<SettingsStore, 'get'>,
  vault: Pick<Vault, 'get'>,
): JoinedTeam | null {
  const team = settings.get().team;
  const password = vault.get('teamDatabasePassword');
  const key = vault.get('teamKey');
  if (!team || !password || !key) return null;
  return { teamId: team.teamId, connection: team.connection, password, teamKey: decodeTeamKey(key) };
}
