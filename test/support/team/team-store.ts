// A team store made the way `team init` leaves one, for tests of joining: the schema, a team_meta row, and
// a join code for the URL's own login (the cluster's superuser stands in for a reviewer). No vitest here:
// the e2e specs use it too.
import crypto from 'node:crypto';
import pg from 'pg';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { codeSecretHash, encodeJoinCode, newCodeUse } from '#main/team/join-code.ts';
import { migrateTeamStore } from '#main/team/store/migrations/index.ts';
import { createTeamKey, teamKeyCheck } from '#main/team/team-key.ts';

export interface TestTeamStore {
  teamId: string;
  teamKey: Buffer;
  connection: TeamConnection;
  /** The login's password: what the reviewer types beside the code. */
  password: string;
  /**
   * A join code for this store, issued in it as `team join-code` does (one use, for its login), with the
   * store's key and connection unless others are given.
   */
  code(overrides?: { teamKey?: Buffer; connection?: TeamConnection; expired?: boolean }): Promise<string>;
}

/** The connection a database URL names, as a join code carries it (no TLS: a loopback cluster). */
export function connectionOf(url: string): { connection: TeamConnection; password: string } {
  const parsed = new URL(url);
  return {
    connection: {
      host: parsed.hostname,
      port: Number(parsed.port),
      database: parsed.pathname.slice(1),
      user: decodeURIComponent(parsed.username),
      sslmode: 'disable',
    },
    password: decodeURIComponent(parsed.password),
  };
}

export async function makeTeamStore(url: string): Promise<TestTeamStore> {
  const teamId = crypto.randomUUID();
  const teamKey = createTeamKey();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrateTeamStore(client);
    await client.query(
      `INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES ($1, $2, 'r')`,
      [teamId, teamKeyCheck(teamKey)],
    );
  } finally {
    await client.end();
  }
  const { connection, password } = connectionOf(url);
  return {
    teamId,
    teamKey,
    connection,
    password,
    async code(overrides = {}) {
      const use = newCodeUse();
      const issued = { teamId, connection, teamKey, ...overrides, use };
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(
          `INSERT INTO vetted.join_codes (id, reviewer, secret_hash, expires_at)
           VALUES ($1, $2, $3, now() + ($4 || ' days')::interval)`,
          [use.id, issued.connection.user, codeSecretHash(use), overrides.expired ? '-1' : '7'],
        );
      } finally {
        await admin.end();
      }
      return encodeJoinCode(issued);
    },
  };
}
