// The team a nemesis run works on: its own store, a primary with a synchronous standby (store.ts: the run
// restarts it and fails it over), the sandbox as the service, two hubs as real processes (`npm run hub --
// run`) behind one front, reaching both nodes (libpq's host=a,b, target_session_attrs=read-write), and four
// desks' data directories, each joined with a code that lists both nodes through proxies of its own (the
// desk's network, which a fault cuts). Desks 1 and 2 are leads (they ask for exports with names, and approve
// each other's). The service holds a few customers the desks write notes on and claim; the leading hub
// brings them into the store. What can start at once does (the store and the service; the hubs together).
import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { reviewerJoinCode } from '#admin/reviewers.ts';
import { setReviewerRole } from '#admin/roles.ts';
import { createServiceClient } from '#main/data/service/index.ts';
import { withNodes } from '#main/team/store/store-nodes.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';
import { type FaultProxy, startFaultProxy } from '../network/fault-proxy.ts';
import { type FrontRelay, startFrontRelay } from '../network/front-relay.ts';
import { samplePerson } from '../person.ts';
import { type HubFleet, type HubProcess, hubFleetOf, hubNames } from '../team/hub-fleet.ts';
import { type MadeTeam, makeTeam } from '../team/team-admin.ts';
import { prejoin } from '../team/team-rig.ts';
import { waitFor } from '../wait-for.ts';
import { crashWords } from './history.ts';
import { type NemesisStore, startNemesisStore } from './store.ts';

/** A desk's network to the store: its proxy to each node, cut, slowed or silenced together. */
export type DeskNetwork = Pick<FaultProxy, 'pass' | 'delay' | 'blackHole' | 'cut'>;

export interface NemesisDeskDir {
  name: string;
  login: string;
  dataDir: string;
  lead: boolean;
  network: DeskNetwork;
}

/** A hub by its place in the fleet: the process running now (null once killed), killed, started again. */
export interface HubSlot {
  current(): HubProcess | null;
  kill(): Promise<void>;
  /** Starts it and waits until it leads or stands by. */
  start(): Promise<void>;
  /**
   * Starts it again without waiting, as a supervisor restarts a hub: the other hub leads meanwhile, and the
   * run goes on. One that never comes up is a crash.
   */
  restart(): void;
}

export interface NemesisTeam {
  store: NemesisStore;
  /**
   * The store as its administrator, for the run's own reads and the faults: a pool on whichever node accepts
   * writes, whose sessions the faults end too (a restart, a failover, a terminated backend); a lost one is
   * discarded, the next query opens another.
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
   * Joins the hubs' directories and starts both hubs at once (one leads, the other stands by); resolves with
   * the customers in the store once the leader has brought the service's in (notes and claims are about them).
   */
  startHubs(): Promise<string[]>;
  close(): Promise<void>;
}

export const DESKS = 4;
/** `desk_1`…: the desks' names, and their logins' (with the team's suffix). */
export const DESK_NAMES = Array.from({ length: DESKS }, (_, i) => `desk_${i + 1}`);
const CUSTOMERS = 12;

export async function startNemesisTeam(say: (line: string) => void): Promise<NemesisTeam> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vetted-nemesis-'));
  const closers: Array<() => Promise<unknown>> = [async () => rmSync(root, { recursive: true, force: true })];
  // Set before anything closes: a hub that ends from then on is not a crash (nor started again).
  const closing = { now: false };
  const close = async () => {
    closing.now = true;
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  const started = performance.now();
  const since = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  try {
    const serviceReady = startSandbox({ port: 0 });
    closers.push(async () => (await serviceReady).close());
    const storeReady = startNemesisStore('nemesis');
    closers.push(async () => (await storeReady).close());
    const [store, sandbox] = await Promise.all([
      storeReady,
      serviceReady.then(async (sandbox) => {
        await createCustomers(sandbox);
        return sandbox;
      }),
    ]);
    say(
      `${since()}: store up (a primary and its synchronous standby), ${CUSTOMERS} customers on the service`,
    );
    const team = await makeTeam(store.primaryUrl(), root, [...hubNames(2), ...DESK_NAMES], {
      nodes: store.nodes,
    });
    const admin = new pg.Pool({ ...store.adminConfig(), max: 2 });
    admin.on('error', () => undefined);
    closers.push(() => admin.end());
    const proxies: FaultProxy[] = [];
    closers.push(() => Promise.all(proxies.map((proxy) => proxy.close())));
    const desks = await joinDesks(store, team, DESK_NAMES, sandbox, root, proxies);
    say(`${since()}: team made, ${DESKS} desks' directories joined`);
    const crashes: string[] = [];
    // Joined in startHubs, while the desks boot.
    let fleet: HubFleet | undefined;
    const hubs = [0, 1].map((index) => hubSlot(() => fleet!.start(index), crashes, closing));
    return {
      store,
      admin,
      keyFile: team.keyFile,
      sandbox,
      hubs,
      desks,
      logins: Object.values(team.reviewers).map((r) => r.login),
      crashes,
      async startHubs() {
        fleet = await joinHubs(team, sandbox, path.join(root, 'hubs'), closers);
        await Promise.all(hubs.map((hub) => hub.start()));
        say(`${since()}: hubs up (one leads, one stands by)`);
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

/** Each desk's directory joined with a code listing both nodes through proxies of the desk's own. */
async function joinDesks(
  store: NemesisStore,
  team: MadeTeam<string>,
  names: readonly string[],
  sandbox: RunningSandbox,
  root: string,
  proxies: FaultProxy[],
): Promise<NemesisDeskDir[]> {
  const setup = new pg.Client({ connectionString: store.primaryUrl() });
  await setup.connect();
  try {
    const desks: NemesisDeskDir[] = [];
    for (const [i, name] of names.entries()) {
      const mine = await Promise.all(store.nodes.map((node) => startFaultProxy(node)));
      proxies.push(...mine);
      const { login, password } = team.reviewers[name]!;
      const { joinCode } = await reviewerJoinCode(setup, {
        name: login,
        keyFile: team.keyFile,
        ...withNodes(mine.map((proxy) => ({ host: '127.0.0.1', port: proxy.port }))),
        sslmode: 'disable',
      });
      const lead = i < 2;
      if (lead) await setReviewerRole(setup, { name: login, role: 'lead', keyFile: team.keyFile });
      const dataDir = path.join(root, name);
      await prejoin(dataDir, sandbox, { joinCode, password, connection: team.reviewers[name]!.connection });
      desks.push({ name, login, dataDir, lead, network: networkOf(mine) });
    }
    return desks;
  } finally {
    await setup.end();
  }
}

function networkOf(proxies: readonly FaultProxy[]): DeskNetwork {
  const all = (act: (proxy: FaultProxy) => void) => () => {
    for (const proxy of proxies) act(proxy);
  };
  return {
    pass: all((proxy) => proxy.pass()),
    delay: (ms) => all((proxy) => proxy.delay(ms))(),
    blackHole: all((proxy) => proxy.blackHole()),
    cut: all((proxy) => proxy.cut()),
  };
}

/** The hubs' directories joined, each reaching both nodes as its join code lists them, behind one front. */
async function joinHubs(
  team: MadeTeam<string>,
  sandbox: RunningSandbox,
  root: string,
  closers: Array<() => Promise<unknown>>,
): Promise<HubFleet> {
  const backends: number[] = [];
  const front: FrontRelay = await startFrontRelay(backends);
  closers.push(() => front.close());
  const fleet = await hubFleetOf(team, hubNames(2), root, {
    service: sandbox,
    publicUrl: front.url,
    retrySeconds: 1,
  });
  closers.push(() => fleet.close());
  backends.push(...fleet.ports);
  return fleet;
}

/**
 * A hub started waits until it leads or stands by (180 s at most: a loaded machine); killed, it is gone until
 * started again. One that ends by itself is a crash: recorded, and started again.
 */
function hubSlot(startHub: () => HubProcess, crashes: string[], closing: { now: boolean }): HubSlot {
  let running: HubProcess | null = null;
  const launch = () => {
    const hub = startHub();
    running = hub;
    void hub.exited.then((status) => {
      if (running !== hub || closing.now) return;
      running = null;
      crashes.push(`${hub.name} ended by itself (${status}): ${crashWords(hub.output.err)}`);
      slot.restart();
    });
    return hub;
  };
  const slot: HubSlot = {
    current: () => running,
    async kill() {
      const hub = running;
      running = null;
      await hub?.kill();
    },
    async start() {
      await launch().said(/hub: (leading|standby)/, 'to lead or stand by', 180_000);
    },
    restart() {
      const hub = launch();
      hub.said(/hub: (leading|standby)/, 'to come up again', 180_000).catch((error: Error) => {
        // Killed by a later fault, or ended by itself (a crash, recorded above): not a hub that never came up.
        const gone = hub.child.exitCode !== null || hub.child.signalCode !== null;
        if (!closing.now && running === hub && !gone) crashes.push(`${hub.name}: ${error.message}`);
      });
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
