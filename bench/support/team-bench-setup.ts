/**
 * The team the fifty-desk bench measures, set up as a team runs: one PostgreSQL with fsync on (commits wait
 * for the disk, as on a server), the sandbox as the service (a worker thread of the bench's process), the
 * team made by its administrator's own commands (`team init`, a login per hub and per desk), two real hub
 * processes (leader and standby, `npm run hub -- run`) behind one front (the team's tunnel), and a data
 * directory per desk, joined as its own reviewer. The store is seeded as team-seed.ts says; the service holds
 * `live` customers, the ones deliveries are about, which the leading hub reconciles into the store itself
 * when it starts (its catch-up of the service's events), as a hub joining a service does.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { readKeyFile } from '#admin/key-file.ts';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import { createServiceClient } from '#main/data/service/index.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import { teamSubscriptionSecrets } from '#main/team/subscription-secrets.ts';
import { type FrontRelay, startFrontRelay } from '#test/support/network/front-relay.ts';
import { samplePerson } from '#test/support/person.ts';
import { type PgCluster, startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import { type HubFleet, type HubProcess, hubFleetOf, hubNames } from '#test/support/team/hub-fleet.ts';
import { type MadeTeam, makeTeam } from '#test/support/team/team-admin.ts';
import { prejoin } from '#test/support/team/team-rig.ts';
import { queueCustomers } from './queue-journal.ts';
import { type SandboxHandle, sandboxInWorker } from './sandbox-worker.ts';
import { catchUpReplica, copyDataDir, seedStoreCustomers } from './team-seed.ts';

export interface TeamBenchOptions {
  desks: number;
  /** Customers in the store in all, `live` of them on the service too. */
  customers: number;
  live: number;
  /** Where data directories go (the caller removes it). */
  dir: string;
  say(line: string): void;
  /** Server settings for the store's cluster (store-cost.ts loads pg_stat_statements). */
  settings?: Record<string, string>;
}

export interface TeamBench {
  cluster: PgCluster;
  /** The team database, as its administrator (superuser). */
  adminUrl: string;
  sandbox: SandboxHandle;
  front: FrontRelay;
  hubs: HubProcess[];
  /** The customers deliveries may name: on the service, each refreshed with one write (no documents). */
  deliverable: string[];
  /** Each desk's reviewer: its name in the bench, its data directory, its PostgreSQL login. */
  desks: Array<{ name: string; dataDir: string; login: string }>;
  /** The team's webhook subscription secret, as the service holds it. */
  secret: string;
  /** Seals audit entries as the team's desks do (the claims floor appends its own). */
  sealer: AuditSealer;
  close(): Promise<void>;
}

export const deskName = (i: number): string => `desk_${String(i + 1).padStart(2, '0')}`;

/** Sandbox first names decide the status: a fifth in `retry`, a tenth in `document`, the rest verified. */
const liveFirstName = (i: number) => (i % 5 === 0 ? 'retry' : i % 10 === 1 ? 'document' : 'Live');

export async function setUpTeamBench(options: TeamBenchOptions): Promise<TeamBench> {
  const { say } = options;
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const cluster = await startPgCluster({
      fsync: true,
      maxConnections: options.desks * 12 + 100,
      ...(options.settings ? { settings: options.settings } : {}),
    });
    closers.push(() => cluster.stop());
    const adminUrl = await cluster.createDatabase('team');
    const sandbox = await sandboxInWorker();
    closers.push(() => sandbox.close());
    const live = await createLiveCustomers(sandbox, options.live);
    say(`${live.length} customers on the service`);

    const names = [...hubNames(2), 'seeder', ...Array.from({ length: options.desks }, (_, i) => deskName(i))];
    const team: MadeTeam<string> = await makeTeam(adminUrl, options.dir, names);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    closers.push(() => admin.end());
    const { rows } = await admin.query<{ key_check: string }>('SELECT key_check FROM vetted.team_meta');
    const teamKey = readKeyFile(team.keyFile, rows[0]!.key_check);
    // Sealed as a desk seals, with the store's current data key: the store refuses the team key itself.
    const keys = await loadTeamKeys(admin, teamKey);
    const seeder = team.reviewers.seeder!;
    const seederUrl = new URL(adminUrl);
    seederUrl.username = seeder.login;
    seederUrl.password = encodeURIComponent(seeder.password);
    const seederPool = new pg.Pool({ connectionString: seederUrl.toString(), max: 2 });
    closers.push(() => seederPool.end());

    let started = performance.now();
    const seederClient = await seederPool.connect();
    // Released even on failure: the pool's end (below, in `close`) waits for every client it lent.
    const seeded = await seedStoreCustomers(
      seederClient,
      keys.cipher,
      queueCustomers(options.customers - options.live, { finalOnly: true }),
    ).finally(() => seederClient.release());
    say(`${seeded} settled customers written into the store in ${seconds(started)} s`);
    const template = path.join(options.dir, 'template');
    mkdirSync(template, { recursive: true, mode: 0o700 });
    started = performance.now();
    const first = await catchUpReplica(template, seederPool, keys.cipher);
    say(`a replica caught up with the store (${first.customers} customers) in ${seconds(started)} s`);

    const backends: number[] = [];
    const front = await startFrontRelay(backends);
    closers.push(() => front.close());
    const fleet: HubFleet = await hubFleetOf(team, hubNames(2), path.join(options.dir, 'hubs'), {
      service: sandbox,
      publicUrl: front.url,
      retrySeconds: 5,
      prepare: (dir) => copyDataDir(template, dir),
    });
    closers.push(() => fleet.close());
    backends.push(...fleet.ports);
    started = performance.now();
    const hubs = [fleet.start(0)];
    await hubs[0]!.leading(120_000);
    hubs.push(fleet.start(1));
    await hubs[1]!.standingBy(120_000);
    await hubSettled(admin, sandbox, hubs[0]!);
    say(`hubs up (leader and standby), the service's customers reconciled in ${seconds(started)} s`);

    started = performance.now();
    const caughtUp = await catchUpReplica(template, seederPool, keys.cipher);
    const desks = Array.from({ length: options.desks }, (_, i) => ({
      name: deskName(i),
      dataDir: path.join(options.dir, deskName(i)),
      login: team.reviewers[deskName(i)]!.login,
    }));
    for (const desk of desks) {
      copyDataDir(template, desk.dataDir);
      await prejoin(desk.dataDir, sandbox, team.reviewers[desk.name]!);
    }
    say(
      `${desks.length} desk directories (replica of ${caughtUp.customers} customers, change ${caughtUp.lastSeq}) ` +
        `joined in ${seconds(started)} s`,
    );

    const secrets = teamSubscriptionSecrets({
      db: admin,
      fields: keys.fields,
      log: createLogger(() => undefined),
    });
    await secrets.load();
    const [secret] = secrets.all();
    if (!secret) throw new Error('the leading hub kept no subscription secret');
    return {
      cluster,
      adminUrl,
      sandbox,
      front,
      hubs,
      deliverable: live.filter((_, i) => liveFirstName(i) !== 'document'),
      desks,
      secret,
      sealer: keys.sealer,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

async function createLiveCustomers(sandbox: SandboxHandle, count: number): Promise<string[]> {
  const service = createServiceClient(sandbox);
  const ids: string[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const person = samplePerson(liveFirstName(i), `Customer${i}`, `live-${i}@example.com`);
      ids[i] = (await service.customers.create(person)).id;
    }
  };
  try {
    await Promise.all(Array.from({ length: 16 }, worker));
  } finally {
    await service.close();
  }
  return ids;
}

/**
 * The leading hub has caught up with the service's events (every one in the store, processed) and reconciled
 * the customers still in progress, and no change has been written for a second.
 */
async function hubSettled(db: pg.Client, sandbox: SandboxHandle, hub: HubProcess): Promise<void> {
  const service = createServiceClient(sandbox);
  const { total } = await service.events.list({ limit: 1, offset: 0 });
  await service.close();
  let last = -1;
  for (const started = Date.now(); Date.now() - started < 600_000; ) {
    const log = readFileSync(path.join(hub.dir, 'vetted.log'), 'utf8');
    if (!log.includes('"hub: customers reconciled"')) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      continue;
    }
    const { rows } = await db.query<{ events: number; unprocessed: number; seq: string }>(
      `SELECT (SELECT count(*)::int FROM vetted.events) AS events,
              (SELECT count(*)::int FROM vetted.events WHERE processed_at IS NULL) AS unprocessed,
              (SELECT last_value FROM vetted.change_seq) AS seq`,
    );
    const { events, unprocessed, seq } = rows[0]!;
    if (events >= total && unprocessed === 0 && Number(seq) === last) return;
    last = Number(seq);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error('the leading hub did not settle within 10 minutes');
}
