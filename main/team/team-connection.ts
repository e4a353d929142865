// One short-lived connection to the team store as the reviewer, for Settings → Team (join, status). Made from
// the pool's own settings (store/pool.ts), so a desk's probe and its pool connect, and check TLS, the same way.
import pg from 'pg';
import type { TeamConnection } from '../settings/team-connection.ts';
import { teamClientConfig } from './store/pool.ts';

/** Connects (or throws pg's / the network's error) within `timeoutMs`; every query is bounded by it too. */
export async function openTeamClient(
  connection: TeamConnection,
  password: string,
  timeoutMs: number,
  applicationName = 'vetted-desk',
): Promise<pg.Client> {
  const client = new pg.Client({
    ...teamClientConfig(connection, password, {
      applicationName,
      connectTimeoutMs: timeoutMs,
    }),
    query_timeout: timeoutMs,
  });
  // A connection dropped while idle must not crash main: the next query reports it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}
