// A connection to the team store ended under a desk's write (#37: a failover, a restarted server,
// pg_terminate_backend, a dropped VPN) costs that write, in words, and the next one succeeds: the process goes
// on. The write runs in a process of its own with no guard (fixtures/lost-connection-child.ts), so an
// `error` event no one hears would end it with a non-zero status. The store holds the write where the test
// wants it (a trigger waiting on an advisory lock the test holds: in the statement, or in the COMMIT for a
// deferred one), the test ends the session from another one, then lets go.
import path from 'node:path';
import type pg from 'pg';
import { expect, test } from 'vitest';
import { serviceCustomer } from '#test/main/data/journal/helpers.ts';
import { runChild } from '#test/support/child.ts';
import { until } from '#test/support/poll.ts';
import { connectTo, openDesk, teamStore } from '#test/support/team/team-journal.ts';

const CHILD = path.resolve(import.meta.dirname, 'fixtures/lost-connection-child.ts');
const CHILD_APPLICATION_NAME = 'vetted-lost-connection-child';
const HOLD = 37_037;

type Where = 'statement' | 'commit';

/** Inserts into `table` wait for the lock HOLD: in the statement itself, or at the COMMIT (deferred). */
async function holdInserts(admin: pg.Client, table: string, where: Where): Promise<void> {
  await admin.query(`CREATE FUNCTION public.lost_hold() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
    BEGIN PERFORM pg_advisory_xact_lock(${HOLD}); RETURN NEW; END $$`);
  await admin.query(
    where === 'statement'
      ? `CREATE TRIGGER lost_hold BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION public.lost_hold()`
      : `CREATE CONSTRAINT TRIGGER lost_hold AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED
           FOR EACH ROW EXECUTE FUNCTION public.lost_hold()`,
  );
}

/** The child's session waiting for HOLD (in its COMMIT for `commit`), once it is there. */
async function waitingSession(admin: pg.Client, where: Where): Promise<number> {
  const found = await until(async () => {
    const { rows } = await admin.query<{ pid: number; query: string }>(
      `SELECT pid, query FROM pg_stat_activity
        WHERE application_name = $1 AND datname = current_database() AND wait_event_type = 'Lock'`,
      [CHILD_APPLICATION_NAME],
    );
    return rows[0];
  }, 'the child’s write to wait for the lock');
  if (where === 'commit') expect(found.query).toBe('COMMIT');
  else expect(found.query).toMatch(/^INSERT/);
  return found.pid;
}

const CLOSED = (url: string) => {
  const { hostname, port } = new URL(url);
  return {
    code: 'TeamUnreachable',
    message: `The connection to the team store at ${hostname}:${port} was closed. Check your network (or VPN) and try again.`,
  };
};

const cases: Array<{ kind: string; where: Where; table: string }> = [
  { kind: 'in-transaction', where: 'statement', table: 'public.lost_probe' },
  { kind: 'in-transaction', where: 'commit', table: 'public.lost_probe' },
  { kind: 'db-write', where: 'statement', table: 'vetted.notes' },
  { kind: 'db-write', where: 'commit', table: 'vetted.notes' },
  { kind: 'unit', where: 'statement', table: 'vetted.notes' },
  { kind: 'unit', where: 'commit', table: 'vetted.notes' },
];

test.each(cases)(
  '$kind, its session ended in the $where: one failure in words, the retry succeeds, the process lives',
  {
    timeout: 60_000,
  },
  async ({ kind, where, table }) => {
    const store = await teamStore();
    const desk = await openDesk(store);
    await desk.journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), {
      source: 'created',
    });
    const admin = await connectTo(store.url);
    await admin.query('CREATE TABLE public.lost_probe (n int)');
    await holdInserts(admin, table, where);
    await admin.query('SELECT pg_advisory_lock($1)', [HOLD]);

    const run = runChild(CHILD, [kind], {
      STORE_URL: store.url,
      TEAM_KEY: store.teamKey.toString('base64url'),
    });
    const pid = await waitingSession(admin, where);
    const { rows } = await admin.query('SELECT pg_terminate_backend($1) AS ended', [pid]);
    expect(rows).toEqual([{ ended: true }]);
    await admin.query('SELECT pg_advisory_unlock($1)', [HOLD]);

    // Exited 0 after the three lines (a crash would add its stderr to the lines).
    const exit = await run.exited;
    expect({ exit, lines: run.lines }).toEqual({
      exit: { code: 0, signal: null },
      lines: ['ready', `failed: ${JSON.stringify(CLOSED(store.url))}`, 'retried: ok'],
    });
    // The write the session took with it left nothing; the retry is there, once.
    if (table === 'public.lost_probe') {
      expect((await admin.query('SELECT n FROM public.lost_probe')).rows).toEqual([{ n: 1 }]);
    } else {
      expect(await desk.journal.notes.list('c-1')).toMatchObject([{ text: 'note 2' }]);
    }
  },
);
