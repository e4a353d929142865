// Team mode behind PgBouncer in transaction mode, end to end: two desks and a hub whose join codes name the
// pooler for their pooled work and the server itself for what needs a session of its own (LISTEN, the hub's
// listener lock). Drafts are created once and reach the other desk live; the lock and the listeners are on
// sessions of their own; a second hub stands by and takes over; a crashed and restarted pooler is
// reconnected to. Skipped, saying why, only where pgbouncer is not installed (CI installs it).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { QueueRow } from '#contract/queue.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { joinCommand } from '#main/team/hub/commands.ts';
import { connectTeam, hubTeam, openHubConfig } from '#main/team/hub/hub-config.ts';
import { type HubCore, type RunningHub, runHub } from '#main/team/hub/run-hub.ts';
import { LISTENER_LOCK } from '#main/team/store/sql.ts';
import { type DeskHarness, startDesk } from '#test/support/desk/desk-harness.ts';
import { customersWithEmail, quickClient, validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { terminateListenerHolder } from '#test/support/postgres/listener-lock.ts';
import { type PgBouncer, pgBouncerMissing, startPgBouncer } from '#test/support/postgres/pgbouncer.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { manualSchedule } from '#test/support/team/manual-schedule.ts';
import { startTeamRig, type TeamRig } from '#test/support/team/team-rig.ts';

const missing = pgBouncerMissing();

describe.skipIf(missing !== undefined)(
  `behind PgBouncer in transaction mode${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bouncer: PgBouncer;
    let rig: TeamRig;
    let alice: DeskHarness;
    let bob: DeskHarness;
    let service: ServiceClient;
    let admin: pg.Client;
    const dirs: string[] = [];

    beforeAll(async () => {
      const adminUrl = await freshDatabase();
      bouncer = await startPgBouncer(adminUrl);
      rig = await startTeamRig(adminUrl, { pooler: { host: bouncer.host, port: bouncer.port } });
      alice = await startDesk(await rig.deskDir('alice'));
      bob = await startDesk(await rig.deskDir('bob'));
      service = quickClient(rig.sandbox);
      admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
    }, 90_000);

    afterAll(async () => {
      await admin?.end();
      await service?.close();
      await alice?.close();
      await bob?.close();
      await rig?.close();
      await bouncer?.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    const rowNamed = async (desk: DeskHarness, name: string): Promise<QueueRow | undefined> =>
      (await desk.call('queue.window', { section: 'all', search: '', offset: 0, limit: 100 })).rows.find(
        (row) => row.name === name,
      );

    /** Submits a draft on `from`; waits for its customer on both desks; answers the customer's id. */
    async function submitAndSee(from: DeskHarness, lastName: string): Promise<string> {
      const form = validForm({ firstName: 'Pool', lastName });
      const { id } = await from.call('drafts.create');
      await from.call('drafts.save', { id, form });
      expect((await from.call('drafts.submit', { ids: [id] })).queued).toEqual([id]);
      let customerId = '';
      for (const desk of [alice, bob]) {
        const row = await until(
          () => rowNamed(desk, `Pool ${lastName}`),
          `Pool ${lastName} on a desk`,
          30_000,
        );
        customerId = row.id;
      }
      // Exactly once: one customer on the service with that e-mail, one created row in the team outbox.
      expect(await customersWithEmail(service, form.email ?? '')).toHaveLength(1);
      const { rows } = await admin.query(`SELECT state FROM vetted.team_outbox WHERE customer_id = $1`, [
        customerId,
      ]);
      expect(rows).toEqual([{ state: 'created' }]);
      return customerId;
    }

    test('a draft submitted through PgBouncer is created once and reaches the other desk live', async () => {
      await submitAndSee(alice, 'Quennell');
    }, 60_000);

    test('pooled work goes through PgBouncer as each login; LISTEN and the listener lock have sessions of their own', async () => {
      const customerId = await until(
        async () => (await rowNamed(alice, 'Pool Quennell'))?.id,
        'the customer',
      );
      await alice.call('customers.reveal', { id: customerId, reason: 'checking the address' });
      // The server sees the reviewer's own login through the pooler: the audit row is stamped with it.
      const audit = await admin.query(
        `SELECT actor FROM vetted.audit_log WHERE action = 'personal.reveal' AND customer_id = $1`,
        [customerId],
      );
      expect(audit.rows).toEqual([{ actor: rig.reviewers.alice.login }]);
      const users = await bouncer.clientUsers();
      for (const who of ['alice', 'bob', 'hub'] as const) expect(users).toContain(rig.reviewers[who].login);

      const pooled = new Set(await bouncer.serverPids());
      // This team's holder: another test file's hub (a second Vitest worker) holds the same key in its database.
      const holder = await admin.query<{ pid: number; application_name: string }>(
        `SELECT l.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1::bigint::oid
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [String(BigInt(LISTENER_LOCK) & 0xffff_ffffn)],
      );
      expect(holder.rows).toEqual([{ pid: expect.any(Number), application_name: 'vetted-hub-leadership' }]);
      expect(pooled.has(holder.rows[0]!.pid)).toBe(false);
      // Both desks and the hub: one LISTENing session each (the replica's, which hears the outbox's submits
      // and four eyes' requests too), and a session each holding the outbox drainer's liveness lock.
      const listeners = await admin.query<{ pid: number; application_name: string }>(
        `SELECT pid, application_name FROM pg_stat_activity
        WHERE datname = current_database() AND application_name ~ '^vetted-\\w+-(replica-listener|outbox|[a-z]+-listener)$'`,
      );
      expect(listeners.rows.map((row) => row.application_name).sort()).toEqual([
        'vetted-desk-outbox',
        'vetted-desk-outbox',
        'vetted-desk-replica-listener',
        'vetted-desk-replica-listener',
        'vetted-hub-outbox',
        'vetted-hub-replica-listener',
      ]);
      for (const row of listeners.rows) expect(pooled.has(row.pid), row.application_name).toBe(false);
    });

    test('a second hub stands by while the first holds the role, and takes it when that session dies', async () => {
      const log = createLogger(() => undefined);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub2-'));
      dirs.push(dir);
      const config = openHubConfig(dir, log);
      const { joinCode, password } = rig.reviewers.hub2;
      await joinCommand(config, { code: joinCode, password }, log);
      const schedule = manualSchedule();
      const listening = { now: false, lines: [] as string[] };
      const core: HubCore = {
        startListener: async () => {
          listening.now = true;
          return { url: 'http://127.0.0.1:1/webhooks' };
        },
        stopListener: async () => {
          listening.now = false;
        },
        close: async () => undefined,
      };
      const team = hubTeam(config);
      const second: RunningHub = await runHub(
        {
          connect: () => connectTeam(team),
          say: (line) => listening.lines.push(line),
          log,
          schedule: schedule.schedule,
        },
        { startCore: async () => core },
      );
      try {
        await until(() => listening.lines.length > 0, 'the second hub to learn its role');
        // Through a pooler both could have "taken" the lock on one shared server session.
        expect(second.role()).toBe('standby');
        expect(rig.hub.role()).toBe('leader');
        expect(await terminateListenerHolder(rig.adminUrl)).toBe(1);
        await until(() => {
          schedule.fire();
          return second.role() === 'leader';
        }, 'the second hub to take the role');
        expect(listening.now).toBe(true);
        await until(() => rig.hub.role() === 'standby', 'the first hub to give the role up');
      } finally {
        await second.close();
      }
    }, 60_000);

    test('a crashed PgBouncer started again: the desks reconnect, and work goes on exactly once', async () => {
      await bouncer.restart();
      await submitAndSee(bob, 'Restarted');
    }, 60_000);
  },
);
