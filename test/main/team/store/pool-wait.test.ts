// A desk's pool is small (store/connection-budget.ts): a caller that finds every connection busy waits its
// turn, opening no other, and fails in words only once its own bound has passed (store/waiting-pool.ts).
import { expect, test } from 'vitest';
import { connectTeamClient, openTeamPool, TeamConnectionError } from '#main/team/store/pool.ts';
import { teamAppError } from '#main/team/team-failures.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { trackPool } from '#test/support/team/admin-support.ts';
import { connectionOf } from '#test/support/team/team-store.ts';

test('with every connection busy, callers wait their turn and get one as it comes free; none more is opened', async () => {
  const { connection, password } = connectionOf(await freshDatabase());
  const pool = trackPool(openTeamPool(connection, password, { max: 2, applicationName: 'vetted-wait-test' }));
  const held = await Promise.all([pool.connect(), pool.connect()]);
  const waiting = Promise.all([pool.query<{ one: number }>('SELECT 1 AS one'), connectTeamClient(pool)]);
  await until(() => pool.waitingCount === 2, 'both callers to wait for a connection');
  for (const client of held) client.release();
  const [answer, out] = await waiting;
  expect(answer.rows).toEqual([{ one: 1 }]);
  const { rows } = await out.client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'vetted-wait-test'`,
  );
  out.release();
  expect(rows[0]?.n).toBe(2);
  expect(pool.totalCount).toBe(2);
  // The connect timeout of a new connection is still its own after the waits.
  expect((pool.options as { connectionTimeoutMillis?: number }).connectionTimeoutMillis).toBe(10_000);
});

test('a caller no connection came free for within its bound is told so in words, and the pool goes on', async () => {
  const { connection, password } = connectionOf(await freshDatabase());
  const pool = trackPool(openTeamPool(connection, password, { max: 1, waitMs: 200 }));
  const held = await pool.connect();
  const words = `All 1 of this computer's connections to the team store at ${connection.host}:${connection.port} stayed busy for 0.2 s: try again in a moment.`;
  const viaQuery = await pool.query('SELECT 1').catch((error: unknown) => error);
  expect(viaQuery).toBeInstanceOf(TeamConnectionError);
  expect(viaQuery).toMatchObject({ kind: 'server', message: words });
  const viaCheckout = await connectTeamClient(pool).catch((error: unknown) => error);
  expect(viaCheckout).toMatchObject({ kind: 'server', message: words });
  // A desk's call answers with it as the store's state, not an internal error.
  expect(teamAppError(viaCheckout)).toMatchObject({ code: 'TeamUnreachable', message: words });
  held.release();
  await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  expect(pool.totalCount).toBe(1);
});
