// One short-lived connection to the team store as the reviewer, for Settings → Team (join, status).
// TODO(merge): switch to team-admin's `openTeamPool` (main/team/store/pool.ts) once both are on main; this
// is the same TLS policy in one function so the switch is a one-line change.
import pg from 'pg';
import type { TeamConnection } from './join-code.ts';

/** verify-full: the server's certificate must chain to the code's CA (or a system CA) and name `host`. */
export function teamTls(connection: TeamConnection): pg.ClientConfig['ssl'] {
  if (connection.sslmode === 'disable') return false;
  return {
    rejectUnauthorized: true,
    servername: connection.host,
    ...(connection.ca ? { ca: connection.ca } : {}),
  };
}

/** Connects (or throws pg's / the network's error) within `timeoutMs`; every query is bounded by it too. */
export async function openTeamClient(
  connection: TeamConnection,
  password: string,
  timeoutMs: number,
): Promise<pg.Client> {
  const client = new pg.Client({
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password,
    ssl: teamTls(connection),
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'vetted-desk',
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
