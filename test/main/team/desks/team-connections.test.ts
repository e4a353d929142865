// How many connections a desk opens to the team store (#38: at most 4), measured as the store sees them: its
// sessions in pg_stat_activity, by its login, sampled without pause while the desk works through a burst of
// parallel claims, notes, drafts, queue reads and catch-ups of another desk's changes. Pooled connections
// stay open after use (idle until the pool's idle timeout), so the last samples hold every connection the
// burst made, and a pool larger than the budget shows. The hub's sessions are bounded too (13).
import { expect, it } from 'vitest';
import { DESK_CONNECTIONS, HUB_CONNECTIONS } from '#main/team/store/connection-budget.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import { teamOutside } from './team-service.ts';
import { teamSuite } from './team-suite.ts';

const team = teamSuite();
const outside = teamOutside(team);

/** Samples the sessions of each of `logins` on the team store until `work` ends; answers the most seen at once, by login. */
async function peakSessions(logins: readonly string[], work: Promise<unknown>): Promise<number[]> {
  let done = false;
  const peaks = logins.map(() => 0);
  const sampling = (async () => {
    while (!done) {
      const { rows } = await outside.admin.query<{ login: string; n: number }>(
        `SELECT usename::text AS login, count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND usename = ANY($1) GROUP BY usename`,
        [logins],
      );
      for (const { login, n } of rows) {
        const at = logins.indexOf(login);
        peaks[at] = Math.max(peaks[at] ?? 0, n);
      }
    }
  })();
  try {
    await work;
  } finally {
    done = true;
    await sampling;
  }
  return peaks;
}

it('a desk keeps to 4 connections under a burst of parallel work; the hub to 13', async () => {
  const { alice, bob, rig } = team;
  const all: string[] = [];
  for (let i = 0; i < 9; i++) {
    const { id } = await outside.service.customers.create(
      samplePerson('document', `Burst${i}`, `burst-${i}@example.com`),
    );
    await alice.call('customers.add', { ref: id });
    all.push(id);
  }
  await until(() => bob.call('customers.get', { id: all.at(-1) ?? '' }).catch(() => null), 'Bob’s replica');
  // Alice takes six; Bob writes on the other three (a case she holds is hers alone to change).
  const ids = all.slice(0, 6);
  const bobs = all.slice(6);
  const draft = async (n: number) => {
    const { id } = await alice.call('drafts.create');
    await alice.call('drafts.save', { id, form: validForm({ firstName: 'Burst', lastName: `Draft${n}` }) });
    return alice.call('drafts.submit', { ids: [id] });
  };
  const window = () => alice.call('queue.window', { section: 'all', search: '', offset: 0, limit: 200 });
  const burst = Promise.all([
    ...ids.map((customerId) => alice.call('claims.take', { customerId })),
    ...ids.map((customerId, n) => alice.call('notes.add', { customerId, text: `Alice's note ${n}` })),
    // Bob's notes reach Alice's replica as she works: live, or by a catch-up.
    ...[...bobs, ...bobs].map((customerId, n) => bob.call('notes.add', { customerId, text: `Bob's ${n}` })),
    ...[0, 1, 2, 3].map(draft),
    ...ids.map(() => window()),
  ]);
  const logins = [rig.reviewers.alice.login, rig.reviewers.bob.login, rig.reviewers.hub.login];
  const [alicePeak, bobPeak, hubPeak] = await peakSessions(logins, burst);
  expect(alicePeak).toBeLessThanOrEqual(DESK_CONNECTIONS);
  expect(bobPeak).toBeLessThanOrEqual(DESK_CONNECTIONS);
  // Her listener, her drainer's session and her pool were all in use.
  expect(alicePeak).toBeGreaterThanOrEqual(3);
  expect(hubPeak).toBeLessThanOrEqual(HUB_CONNECTIONS);
  // The work itself all went through (a call that failed for want of a connection fails the burst), and
  // every take found its case free: Alice holds all six.
  const taken = (await window()).rows.filter((row) => ids.includes(row.id) && row.claimedBy !== null);
  expect(taken).toHaveLength(ids.length);
}, 120_000);
