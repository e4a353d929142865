// The team store fails over (#37): a primary with a synchronous streaming standby, two desks and a hub
// writing (drafts submitted, notes, claims, four-eyes approvals; the hub records the service's webhooks).
// The primary is killed with -9; once the desks have felt it, the standby is promoted. Then: every
// acknowledged draft, note, claim and approval is there once; nothing reached the service twice; the audit
// chain verifies; both desks' replicas come to equal the new primary (changes made during the failover
// caught up). Twice: behind HAProxy with a check that finds the writable node, and with no proxy, every node
// listed in the join codes (libpq's host=a,b, target_session_attrs=read-write) and in the hub's --database.
// Not timed (bench/db-failover.ts measures the gap); every wait is for an event, bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addReviewer } from '#admin/reviewers.ts';
import { setReviewerRole } from '#admin/roles.ts';
import { verifyStoreAudit } from '#admin/verify-audit.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { withNodes } from '#main/team/store/store-nodes.ts';
import { type DeskHarness, startDesk } from '#test/support/desk/desk-harness.ts';
import { customersWithEmail, quickClient } from '#test/support/desk/drafts.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import { haproxyMissing } from '#test/support/postgres/haproxy.ts';
import {
  type FailoverSetUp,
  type FailoverStore,
  startFailoverStore,
} from '#test/support/postgres/store-failover.ts';
import { prejoin, startTeamRig, type TeamRig } from '#test/support/team/team-rig.ts';
import { startWork, type WorkLoop } from './failover-work.ts';
import { sandboxRequests } from './team-service.ts';

const missing = haproxyMissing();
const setUps: FailoverSetUp[] = missing ? ['multi-host'] : ['haproxy', 'multi-host'];

describe.each(setUps)('the team store fails over (%s)', (setUp) => {
  let store: FailoverStore;
  let rig: TeamRig;
  let alice: DeskHarness;
  let bob: DeskHarness;
  let service: ServiceClient;
  let admin: pg.Client;
  const retryCases: string[] = [];
  const extraDirs: string[] = [];

  beforeAll(async () => {
    store = await startFailoverStore(setUp);
    rig = await startTeamRig(store.adminUrl, {
      ...store.reach,
      // With no proxy the hub is pointed at both nodes by its command line too (`run --database`).
      ...(setUp === 'multi-host'
        ? {
            hubDatabase: ({ user, database }) =>
              `postgres://${user}@${store.nodes.map((n) => `${n.host}:${n.port}`).join(',')}/${database}?target_session_attrs=read-write`,
          }
        : {}),
    });
    const first = new pg.Client({ connectionString: store.adminUrl });
    await first.connect();
    try {
      await setReviewerRole(first, { name: rig.reviewers.alice.login, role: 'lead', keyFile: rig.keyFile });
    } finally {
      await first.end();
    }
    alice = await startDesk(await rig.deskDir('alice'));
    bob = await startDesk(await rig.deskDir('bob'));
    await alice.call('team.updateSettings', {
      fourEyes: { retry: true, exportNames: false, expiryHours: 24 },
    });
    service = quickClient(rig.sandbox);
    for (const n of [1, 2]) {
      const { id } = await service.customers.create(
        samplePerson('retry', `Retry${n}`, `retry${n}@example.com`),
      );
      await alice.call('customers.add', { ref: id });
      await until(() => bob.call('customers.get', { id }).catch(() => null), 'the retry case on Bob’s desk');
      retryCases.push(id);
    }
  }, 300_000);

  afterAll(async () => {
    await admin?.end();
    await service?.close();
    await alice?.close();
    await bob?.close();
    await rig?.close();
    await store?.close();
    for (const dir of extraDirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const afterRounds = (loops: WorkLoop[], more: number, what: string) => {
    const from = loops.map((loop) => loop.rounds);
    return until(() => loops.every((loop, i) => loop.rounds >= from[i]! + more), what, 150_000);
  };

  test('killed with -9 under load and the standby promoted: all acknowledged work is there once', async () => {
    const work = [
      startWork(alice, 'Alice', { approves: true }),
      startWork(bob, 'Bob', { retryCases }),
    ] as const;
    try {
      await afterRounds([...work], 2, 'both desks to work before the kill');
      const failures = work.map((loop) => loop.failures);
      await store.primary.kill();
      // The standby is promoted once both desks have felt the primary gone.
      await until(
        () => work.every((loop, i) => loop.failures > failures[i]!),
        'the desks to feel it',
        150_000,
      );
      await store.standby.promote();
      await afterRounds([...work], 3, 'both desks to work again after the promotion');
    } finally {
      await Promise.all(work.map((loop) => loop.stop()));
    }
    admin = new pg.Client({ connectionString: store.standbyUrl });
    await admin.connect();
    const [a, b] = work.map((loop) => loop.done);

    // Drafts: each acknowledged one is one customer on the service; one never acknowledged at most one.
    const drafts = [...a!.drafts, ...b!.drafts];
    expect(drafts.length).toBeGreaterThan(4);
    for (const email of drafts) {
      await until(
        async () => (await customersWithEmail(service, email)).length > 0,
        `${email} on the service`,
      );
      expect(await customersWithEmail(service, email)).toHaveLength(1);
    }
    for (const email of [...a!.unsure, ...b!.unsure]) {
      expect((await customersWithEmail(service, email)).length).toBeLessThanOrEqual(1);
    }
    const created = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM vetted.team_outbox WHERE customer_id IS NOT NULL GROUP BY customer_id HAVING count(*) > 1`,
    );
    expect(created.rows).toEqual([]);

    // Claims: held by whoever was told they took it.
    for (const [desk, done] of [
      ['alice', a!],
      ['bob', b!],
    ] as const) {
      for (const customerId of done.claims) {
        const { rows } = await admin.query('SELECT holder FROM vetted.claims WHERE customer_id = $1', [
          customerId,
        ]);
        expect(rows).toEqual([{ holder: rig.reviewers[desk].login }]);
      }
    }

    // Approvals: every acknowledged one sent; the service received each retry sent, and no other.
    const sent = await admin.query<{ id: string }>(`SELECT id FROM vetted.approvals WHERE state = 'sent'`);
    for (const { id } of a!.approved) expect(sent.rows.map((row) => row.id)).toContain(id);
    for (const customerId of retryCases) {
      const status = (await service.customers.get(customerId)).status;
      const wasSent = a!.approved.some((approval) => approval.customerId === customerId);
      if (wasSent) expect(status).toBe('verified');
    }
    // Bob asks once a case: a retry that reached the service before the store died may not be marked sent
    // (its outcome unknown to the store), yet none reaches it twice.
    const retries = await retriesReceived();
    expect(retries).toBeGreaterThanOrEqual(sent.rows.length);
    expect(retries).toBeLessThanOrEqual(b!.asked.size);

    // The hub lived through it, and leads again on the new primary (its lock's session was on the dead one).
    await until(() => rig.hub.role() === 'leader', 'the hub to lead again', 150_000);
    const { rows: held } = await admin.query(
      `SELECT 1 FROM pg_stat_activity WHERE application_name = 'vetted-hub-leadership' AND datname = current_database()`,
    );
    expect(held).toHaveLength(1);

    // The audit chain verifies on the new primary.
    const verdict = await verifyStoreAudit(admin, { keyFile: rig.keyFile });
    expect(verdict.entries).toBeGreaterThan(drafts.length);

    // Each desk's replica comes to equal the new primary, and every acknowledged note is in it once.
    // Read again at each look: the sandbox's reviews go on moving statuses, and the hub records them.
    const storeRows = async () =>
      JSON.stringify(
        (
          await admin.query<{ id: string; status: string }>(
            `SELECT id, status FROM vetted.customers WHERE gone_at IS NULL ORDER BY id`,
          )
        ).rows,
      );
    for (const desk of [alice, bob]) {
      let last = { desk: '', store: '' };
      await until(
        async () => {
          const { rows } = await desk.call('queue.window', {
            section: 'all',
            search: '',
            offset: 0,
            limit: 200,
          });
          const seen = rows
            .map((row) => ({ id: row.id, status: row.status }))
            .sort((x, y) => (x.id < y.id ? -1 : 1));
          last = { desk: JSON.stringify(seen), store: await storeRows() };
          return last.desk === last.store;
        },
        'the replica to equal the new primary',
        150_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\ndesk:  ${last.desk}\nstore: ${last.store}`);
      });
      for (const note of [...a!.notes, ...b!.notes]) {
        const { entries } = await desk.call('customers.timeline', { id: note.customerId, limit: 2000 });
        expect(entries.filter((entry) => entry.kind === 'note' && entry.detail === note.text)).toHaveLength(
          1,
        );
      }
    }
  }, 420_000);

  test.runIf(setUp === 'multi-host')(
    'a join code listing the dead primary first joins a desk to the promoted standby',
    async () => {
      const { dataDir, ...reviewer } = await newDeskDir('carol');
      extraDirs.push(dataDir);
      const carol = await startDesk(dataDir);
      try {
        const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM vetted.customers');
        await until(
          async () => {
            const window = await carol.call('queue.window', {
              section: 'all',
              search: '',
              offset: 0,
              limit: 200,
            });
            return window.rows.length === Number(rows[0]!.n);
          },
          'Carol’s desk to catch up from the new primary',
          90_000,
        );
        expect(reviewer.connection.standbys).toHaveLength(1);
      } finally {
        await carol.close();
      }
    },
    180_000,
  );

  /** A new reviewer added on the new primary, their code listing the dead primary first; joined in a new dir. */
  async function newDeskDir(name: string) {
    const made = await addReviewer(admin, {
      name: `${name}_${Date.now().toString(36)}`,
      keyFile: rig.keyFile,
      ...withNodes([store.primary, store.standby].map((node) => ({ host: node.host, port: node.port }))),
      sslmode: 'disable',
    });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `vetted-desk-${name}-`));
    await prejoin(dataDir, rig.sandbox, made);
    return { dataDir, ...made };
  }

  const retriesReceived = () => sandboxRequests(rig.sandbox, service, 'POST /customers/{id}');
});
