// The hub's own data directory: its vault (team key, its database password, the service's client secret)
// and its settings file (service, webhook port and public URL, the team it joined). Separate from any desk's,
// so a hub and a desk on one machine never share credentials.
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { openSettings, type SettingsStore } from '#main/ground/config/settings-store.ts';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import type { Logger } from '#main/ground/log/logger.ts';
import { openFileKeyVault, openVaultRecovering, type Vault } from '#main/ground/vault/vault.ts';
import { type JoinedTeam, joinedTeam } from '../joined.ts';
import { directConnection } from '../store/pool.ts';
import { parseStoreUrl, StoreNodesError, type StoreUrl, withNodes } from '../store/store-nodes.ts';
import { openTeamClient } from '../team-connection.ts';

/** A refusal of the hub's command line, in words; the command exits with status 1. */
export class HubError extends Error {
  override name = 'HubError';
}

export function defaultHubDataDir(): string {
  const config = process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config');
  return path.join(config, 'Vetted', 'hub');
}

export interface HubConfig {
  dataDir: string;
  vault: Vault;
  settings: SettingsStore;
}

/** Opens (creating when missing) the hub's vault and settings; every secret it holds is redacted from logs. */
export function openHubConfig(dataDir: string, log: Pick<Logger, 'warn' | 'addSecret'>): HubConfig {
  const vault = openVaultRecovering(
    () => openFileKeyVault({ dir: dataDir }),
    (problem) => log.warn('hub vault problem', { problem }),
  );
  for (const name of vault.names()) {
    const secret = vault.get(name);
    if (secret) log.addSecret(secret);
  }
  const settings = openSettings({ dir: dataDir });
  if (settings.problem) log.warn('hub settings problem', { problem: settings.problem });
  return { dataDir, vault, settings };
}

/** The team the hub joined, with what it needs from the vault to work on it. */
export type HubTeam = JoinedTeam;

/**
 * The joined team; `databaseUrl` (`run --database URL`) points the hub at another host, port, database or
 * login of the same team store, e.g. a replica's address. Its password never comes from a URL (argv shows
 * in `ps`): it is the one `join` kept. A direct address the join code named stays where sessions go.
 */
export function hubTeam(config: HubConfig, databaseUrl?: string): HubTeam {
  const team = joinedTeam(config.settings, config.vault);
  if (!team) {
    throw new HubError(
      'This hub has not joined a team: run `npm run hub -- join` and give it the join code and the database password.',
    );
  }
  return databaseUrl ? { ...team, connection: overridden(team.connection, databaseUrl) } : team;
}

function overridden(connection: TeamConnection, databaseUrl: string): TeamConnection {
  let url: StoreUrl;
  try {
    url = parseStoreUrl(databaseUrl, '--database');
  } catch (error) {
    if (error instanceof StoreNodesError) throw new HubError(error.message);
    throw error;
  }
  if (url.password) {
    throw new HubError(
      '--database must not hold a password (the command line is visible to other users): `join` keeps it in the vault.',
    );
  }
  // Several nodes (postgres://user@a:5432,b:5433/db): the hub keeps to whichever accepts writes.
  const { standbys: _, ...rest } = connection;
  return {
    ...(url.nodes.length ? { ...rest, ...withNodes(url.nodes) } : connection),
    ...(url.database ? { database: url.database } : {}),
    ...(url.user ? { user: url.user } : {}),
  };
}

/** The name the listener role's connection shows in pg_stat_activity. */
export const LEADERSHIP_APPLICATION_NAME = 'vetted-hub-leadership';

/** How long a statement on the leadership connection may take: past it the connection counts as dead. */
export const LEADERSHIP_ANSWER_MS = 10_000;

/**
 * A fresh connection of its own to the team store as the hub's login, for the listener role's lock: the lock
 * belongs to the session, so it goes to the direct address (a pooler in transaction mode would share the
 * session, and the lock, with other clients, and keep it after the hub died). Every statement on it answers
 * within `timeoutMs`; with `endWhenQuietMs` the server ends the session (and frees the lock) once it has
 * been quiet that long: a hub whose network went silent does not keep the role from a standby.
 */
export function connectTeam(
  team: HubTeam,
  timeoutMs = LEADERSHIP_ANSWER_MS,
  endWhenQuietMs?: number,
): Promise<pg.Client> {
  return openTeamClient(
    directConnection(team.connection),
    team.password,
    timeoutMs,
    LEADERSHIP_APPLICATION_NAME,
    endWhenQuietMs,
  );
}
