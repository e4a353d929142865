// The nemesis's faults (#37): each kind injects one fault into the running team and answers how to heal it.
// A kind is registered by name (`FAULT_KINDS`); a proxy with more modes, or a failover rig, adds kinds here
// without the schedule knowing. The schedule draws the kind and its target from the run's seeded stream:
// a seed replays the same sequence of faults (their timing follows the machine's load).
import type pg from 'pg';
import type { HubProcess } from '../team/hub-fleet.ts';
import type { NemesisStore } from './store.ts';
import type { DeskNetwork } from './team.ts';

/** What a fault may act on: the run's processes, the store, the desks' network. */
export interface FaultTargets {
  /** A primary and its synchronous standby (either may be the primary by now). */
  store: NemesisStore;
  /** The store as its administrator (terminates sessions). */
  admin: pg.Pool;
  /** The team's logins (sessions of other logins are left alone). */
  logins: readonly string[];
  hubs: ReadonlyArray<{ current(): HubProcess | null; kill(): Promise<void>; restart(): void }>;
  desks: ReadonlyArray<{ name: string; pid(): number; network: DeskNetwork }>;
}

export interface Injected {
  /** What was hit, in words ("hub_1", "desk_3", "pid 1234"). */
  target: string;
  heal(): Promise<void>;
}

export interface FaultKind {
  name: string;
  /** Injects the fault on a target drawn with `random`; null when it has nothing to act on now. */
  inject(targets: FaultTargets, random: () => number): Promise<Injected | null>;
}

const pick = <T>(list: readonly T[], random: () => number): T | undefined =>
  list[Math.floor(random() * list.length)];
const healed = async () => undefined;

/**
 * kill -9 of a running hub (the other takes the lead); healed by starting it again, not waiting for it to
 * stand by (its boot is the machine's to pay; the next fault need not wait for it).
 */
const hubKill: FaultKind = {
  name: 'hub-kill',
  async inject({ hubs }, random) {
    const running = hubs.filter((hub) => hub.current() !== null);
    const hub = pick(running, random);
    if (!hub) return null;
    const name = hub.current()!.name;
    await hub.kill();
    return {
      target: name,
      heal: async () => {
        hub.restart();
      },
    };
  },
};

/** SIGSTOP of a desk's process, as a laptop's lid closed; SIGCONT heals it. */
const deskSleep: FaultKind = {
  name: 'desk-sleep',
  async inject({ desks }, random) {
    const desk = pick(desks, random)!;
    const pid = desk.pid();
    process.kill(pid, 'SIGSTOP');
    return {
      target: desk.name,
      heal: async () => {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Gone already (it cannot crash while stopped; killed at the run's end).
        }
      },
    };
  },
};

/**
 * `pg_ctl restart -m immediate` of the primary: it crashes and recovers on the same node; every session of
 * every desk and hub lost; its standby streams again once it is back.
 */
const pgRestart: FaultKind = {
  name: 'pg-restart',
  async inject({ store }) {
    const primary = store.primary();
    await primary.restart();
    return { target: `the primary (:${primary.port})`, heal: healed };
  },
};

/**
 * The primary's machine dies (kill -9 of every PostgreSQL process) under the desks' load; its standby is
 * promoted 0.5–3 s later (an operator's or a failover manager's reaction, drawn), and every desk and hub
 * finds the new primary among the nodes it lists. Healed by a new synchronous standby copied from the new
 * primary on the dead node's address, so a later failover can happen again.
 */
const failover: FaultKind = {
  name: 'failover',
  async inject({ store }, random) {
    // Nothing to promote (a heal that failed): no failover now.
    if (!store.standby()) return null;
    const dead = store.primary().port;
    await store.killPrimary();
    await sleep(500 + random() * 2_500);
    await store.promote();
    return {
      target: `the primary (:${dead}) to :${store.primary().port}`,
      heal: () => store.rebuildStandby(),
    };
  },
};

/** pg_terminate_backend of one of the team's sessions (a desk's or a hub's pool, a LISTEN, a lock's). */
const pgTerminate: FaultKind = {
  name: 'pg-terminate',
  async inject({ admin, logins }, random) {
    const { rows } = await admin.query<{ pid: number; usename: string }>(
      'SELECT pid, usename FROM pg_stat_activity WHERE usename = ANY($1::text[]) ORDER BY pid',
      [logins],
    );
    const session = pick(rows, random);
    if (!session) return null;
    await admin.query('SELECT pg_terminate_backend($1)', [session.pid]);
    return { target: `${session.usename} pid ${session.pid}`, heal: healed };
  },
};

/** A desk's network to the store cut (every connection reset, new ones refused) until healed. */
const netCut: FaultKind = {
  name: 'net-cut',
  async inject({ desks }, random) {
    const desk = pick(desks, random)!;
    desk.network.cut();
    return {
      target: desk.name,
      heal: async () => {
        desk.network.pass();
      },
    };
  },
};

/**
 * A desk's connections to the store go silent (no reset, no end: a NAT that forgot them), new ones too until
 * healed. Nothing heals the silenced ones: the desk must notice by itself (its heartbeat and deadlines).
 */
const netFreeze: FaultKind = {
  name: 'net-freeze',
  async inject({ desks }, random) {
    const desk = pick(desks, random)!;
    desk.network.blackHole();
    return {
      target: desk.name,
      heal: async () => {
        desk.network.pass();
      },
    };
  },
};

/** A desk's network to the store slow: every chunk 150 ms late, each way, until healed. */
const netSlow: FaultKind = {
  name: 'net-slow',
  async inject({ desks }, random) {
    const desk = pick(desks, random)!;
    desk.network.delay(150);
    return {
      target: desk.name,
      heal: async () => {
        desk.network.pass();
      },
    };
  },
};

export const FAULT_KINDS: ReadonlyMap<string, FaultKind> = new Map(
  [hubKill, deskSleep, pgRestart, failover, pgTerminate, netCut, netFreeze, netSlow].map((kind) => [
    kind.name,
    kind,
  ]),
);

/** Every kind a run uses unless told otherwise. */
export const DEFAULT_FAULTS = [
  'hub-kill',
  'desk-sleep',
  'pg-restart',
  'failover',
  'pg-terminate',
  'net-cut',
] as const;

export function faultKinds(names: readonly string[]): FaultKind[] {
  return names.map((name) => {
    const kind = FAULT_KINDS.get(name);
    if (!kind) throw new Error(`No fault kind ${name} (have: ${[...FAULT_KINDS.keys()].join(', ')})`);
    return kind;
  });
}

export interface ScheduleOptions {
  kinds: readonly FaultKind[];
  targets: FaultTargets;
  random: () => number;
  /** Date.now() at which no new fault starts. */
  until: number;
  /** The quiet between two faults and how long each lasts, in ms: [least, most]. */
  gapMs: readonly [number, number];
  holdMs: readonly [number, number];
  say(line: string): void;
}

/**
 * Injects faults one at a time, each healed before the next, until `until`; counts them by kind. The kinds
 * come in rounds, each a seeded shuffle of every kind: the counts stay even, and the first round always runs
 * to its end, so even a short run injects each kind (unless it had nothing to act on).
 */
export async function runFaultSchedule(options: ScheduleOptions): Promise<Record<string, number>> {
  const { random, say } = options;
  const between = ([least, most]: readonly [number, number]) => least + random() * (most - least);
  const counts: Record<string, number> = Object.fromEntries(options.kinds.map((kind) => [kind.name, 0]));
  const started = Date.now();
  if (options.kinds.length === 0) return counts;
  let round: FaultKind[] = [];
  let rounds = 0;
  const due = () => Date.now() < options.until || (rounds === 1 && round.length > 0);
  for (;;) {
    if (round.length === 0) {
      round = shuffled(options.kinds, random);
      rounds += 1;
    }
    if (!due()) break;
    await sleep(between(options.gapMs));
    if (!due()) break;
    const kind = round.pop()!;
    const hold = between(options.holdMs);
    const injected = await kind.inject(options.targets, random);
    if (!injected) continue;
    counts[kind.name] = (counts[kind.name] ?? 0) + 1;
    say(`${((Date.now() - started) / 1000).toFixed(1)} s: ${kind.name} ${injected.target}`);
    await sleep(hold);
    const healing = Date.now();
    await injected.heal();
    if (Date.now() - healing > 1_000)
      say(`  ${kind.name} healed in ${((Date.now() - healing) / 1000).toFixed(1)} s`);
  }
  return counts;
}

/** Fisher–Yates with the run's stream. */
function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
