// One short-lived connection to the team store as the reviewer, for Settings → Team (join, status). Made from
// the pool's own settings (store/pool.ts), so a desk's probe and its pool connect, and check TLS, the same way.
import type pg from 'pg';
import type { TeamConnection } from '../ground/config/team-connection.ts';
import { dedicatedClient } from './store/checkout.ts';
import { teamClientConfig } from './store/pool.ts';
import { endWhenQuiet } from './store/silence.ts';

/**
 * Connects (or throws pg's / the network's error) within `timeoutMs`; every query is bounded by it too. With
 * `endWhenQuietMs` (a session of its own on the server, kept open and used at least that often) the server
 * ends the session once it has been quiet that long (store/silence.ts).
 */
export async function openTeamClient(
  connection: TeamConnection,
  password: string,
  timeoutMs: number,
  applicationName = 'vetted-desk',
  endWhenQuietMs?: number,
): Promise<pg.Client> {
  // A connection dropped while idle must not crash main: the next query reports it (its owner, such as the
  // hub's leadership, may listen for the loss as well).
  const client = dedicatedClient(
    teamClientConfig(connection, password, {
      applicationName,
      connectTimeoutMs: timeoutMs,
      queryTimeoutMs: timeoutMs,
    }),
    () => undefined,
  );
  try {
    await client.connect();
    if (endWhenQuietMs) await client.query(endWhenQuiet(endWhenQuietMs));
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}
