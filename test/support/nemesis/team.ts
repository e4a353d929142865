// The team a nemesis run works on: its own PostgreSQL (the run restarts it), the sandbox as the service, two
// hubs as real processes (`npm run hub -- run`) behind one front, and four desks' data directories, each
// joined with a code that reaches the store through a proxy of its own (the desk's network, which a fault
// cuts). Desks 1 and 2 are leads (they ask for exports with names, and approve each other's). The service
// holds a few customers the desks write notes on and claim; the leading hub brings them into the store.
import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createServiceClient } from '../../../main/service/index.ts';
import { reviewerJoinCode } from '../../../main/team/admin/reviewers.ts';
import { setReviewerRole } from '../../../main/team/admin/roles.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';
import { type FaultProxy, startFaultProxy } from '../fault-proxy.ts';
import { type FrontRelay, startFrontRelay } from '../front-relay.ts';
import { type HubFleet, type HubProcess, hubFleetOf, hubNames } from '../hub-fleet.ts';
import { samplePerson } from '../person.ts';
import { type PgCluster, startPgCluster } from '../pg-cluster.ts';
import { makeTeam } from '../team-admin.ts';
import { prejoin } from '../team-rig.ts';
import { waitFor } from '../wait-for.ts';
import { crashWords } from './history.ts';

export interface NemesisDeskDir {
  name: string;
  login: string;
  dataDir: string;
  lead: boolean;
  proxy: FaultProxy;
}

/** A hub by its place in the fleet: the process running now (null once killed), killed, started again. */
export interface HubSlot {
  current(): HubProcess | null;
  kill(): Promise<void>;
  start(): Promise<void>;
}

export interface NemesisTeam {
  cluster: PgCluster;
  adminUrl: string;
  /**
   * The store as its administrator, for the run's own reads and the faults: a pool, whose sessions the faults
   * end too (a restart, a terminated backend); a lost one is discarded, the next query opens another.
   */
  admin: pg.Pool;
  keyFile: string;
  sandbox: RunningSandbox;
  hubs: HubSlot[];
  desks: NemesisDeskDir[];
  /** Every login of the team (hubs' and desks'). */
  logins: string[];
  /** Each hub that ended by itself (it is started again): how, and what it threw. */
  crashes: string[];
  /**
   * Starts the hubs, one after the other (the first leads); resolves with the customers in the store once the
   * leader has brought the service's in (notes and claims are about them).
   */
  startHubs(): Promise<string[]>;
  close(): Promise<void>;
}

export const DESKS = 4;
const CUSTOMERS = 12;

export async function startNemesisTeam(say: (line: string) => void): Promise<NemesisTeam> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vetted-nemesis-'));
  const closers: Array<() => Promise<unknown>> = [async () => rmSync(root, { recursive: true, force: true })];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const cluster = await startPgCluster();
    closers.push(() => cluster.stop());
    const adminUrl = await cluster.createDatabase('nemesis');
    const sandbox = await startSandbox({ port: 0 });
    closers.push(() => sandbox.close());
    await createCustomers(sandbox);
    const deskNames = Array.from({ length: DESKS }, (_, i) => `desk_${i + 1}`);
    const team = await makeTeam(adminUrl, root, [...hubNames(2), ...deskNames]);
    const setup = new pg.Client({ connectionString: adminUrl });
    await setup.connect();
    closers.push(() => setup.end());
    const admin = new pg.Pool({ connectionString: adminUrl, max: 2 });
    admin.on('error', () => undefined);
    closers.push(() => admin.end());
    const desks: NemesisDeskDir[] = [];
    for (const [i, name] of deskNames.entries()) {
      const proxy = await startFaultProxy({ host: cluster.host, port: cluster.port });
      closers.push(() => proxy.close());
      const { login, password } = team.reviewers[name]!;
      // A code naming the desk's own proxy: everything the desk opens to the store goes through it.
      const { joinCode } = await reviewerJoinCode(setup, {
        name: login,
        keyFile: team.keyFile,
        host: '127.0.0.1',
        port: proxy.port,
        sslmode: 'disable',
      });
      const lead = i < 2;
      if (lead) await setReviewerRole(setup, { name: login, role: 'lead', keyFile: team.keyFile });
      const dataDir = path.join(root, name);
      await prejoin(dataDir, sandbox, { joinCode, password, connection: team.reviewers[name]!.connection });
      desks.push({ name, login, dataDir, lead, proxy });
    }
    await setup.end();
    const backends: number[] = [];
    const front: FrontRelay = await startFrontRelay(backends);
    closers.push(() => front.close());
    const fleet: HubFleet = await hubFleetOf(team, hubNames(2), path.join(root, 'hubs'), {
      service: sandbox,
      publicUrl: front.url,
      retrySeconds: 1,
    });
    closers.push(() => fleet.close());
    backends.push(...fleet.ports);
    const crashes: string[] = [];
    const closing = { now: false };
    closers.push(async () => {
      closing.now = true;
    });
    const hubs = [hubSlot(fleet, 0, crashes, closing), hubSlot(fleet, 1, crashes, closing)];
    say(`team made: ${DESKS} desks' directories joined, 2 hubs' directories`);
    return {
      cluster,
      adminUrl,
      admin,
      keyFile: team.keyFile,
      sandbox,
      hubs,
      desks,
      logins: Object.values(team.reviewers).map((r) => r.login),
      crashes,
      async startHubs() {
        await hubs[0]!.start();
        await hubs[1]!.start();
        return waitFor(
          async () => {
            const { rows } = await admin.query<{ id: string }>('SELECT id FROM vetted.customers ORDER BY id');
            return rows.length >= CUSTOMERS && rows.map((row) => row.id);
          },
          'the leading hub to bring the service’s customers into the store',
          120_000,
        );
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A hub started waits until it leads or stands by (180 s at most: a loaded machine); killed, it is gone until started again. One
 * that ends by itself is a crash: recorded, and started again.
 */
function hubSlot(fleet: HubFleet, index: number, crashes: string[], closing: { now: boolean }): HubSlot {
  let running: HubProcess | null = null;
  const slot: HubSlot = {
    current: () => running,
    async kill() {
      const hub = running;
      running = null;
      await hub?.kill();
    },
    async start() {
      const hub = fleet.start(index);
      running = hub;
      void hub.exited.then((status) => {
        if (running !== hub || closing.now) return;
        running = null;
        crashes.push(`${hub.name} ended by itself (${status}): ${crashWords(hub.output.err)}`);
        void slot
          .start()
          .catch((error: Error) => crashes.push(`${hub.name} did not start again: ${error.message}`));
      });
      await hub.said(/hub: (leading|standby)/, 'to lead or stand by', 180_000);
    },
  };
  return slot;
}

async function createCustomers(sandbox: RunningSandbox): Promise<void> {
  const service = createServiceClient(sandbox);
  try {
    for (let i = 0; i < CUSTOMERS; i++) {
      const person = samplePerson('Nemesis', `Case${i}`, `nemesis.case.${i}@example.com`);
      await service.customers.create(person, { idempotencyKey: crypto.randomUUID() });
    }
  } finally {
    await service.close();
  }
}
