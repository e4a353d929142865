// One short-lived connection to the team store as the reviewer, for Settings → Team (join, status). Made from
// the pool's own settings (store/pool.ts), so a desk's probe and its pool connect, and check TLS, the same way.
import type pg from 'pg';
import type { TeamConnection } from '../config/team-connection.ts';
import { dedicatedClient } from './store/checkout.ts';
import { teamClientConfig } from './store/pool.ts';

/** Connects (or throws pg's / the network's error) within `timeoutMs`; every query is bounded by it too. */
export async function openTeamClient(
  connection: TeamConnection,
  password: string,
  timeoutMs: number,
  applicationName = 'vetted-desk',
): Promise<pg.Client> {
  // A connection dropped while idle must not crash main: the next query reports it (its owner, such as the
  // hub's leadership, may listen for the loss as well).
  const client = dedicatedClient(
    {
      ...teamClientConfig(connection, password, {
        applicationName,
        connectTimeoutMs: timeoutMs,
      }),
      query_timeout: timeoutMs,
    },
    () => undefined,
  );
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}
