/**
 * How the change feed's cost grows with the desks (#38, "Past this machine, on paper"). Today every desk keeps one
 * session LISTENing on the team store, and PostgreSQL makes each listening session read every notification of
 * the database: the store's CPU per change grows with the desks. The design that would not: the hub LISTENs once
 * and fans each change out to the desks itself (here a prototype: server-sent events over HTTP,
 * support/fanout-child.ts `hub`), so the store's cost per change stays one session's and the per-desk part moves
 * to the hubs, which a team can add.
 *
 * Each measurement starts its followers in a process of their own (N listening sessions; or the hub and M desks
 * following it), then a writer in another process sends `--changes` notifications of `--bytes` each, one committed
 * transaction apiece (the size of a customer row as the store announces it), and waits until every follower has
 * every one. Measured: the store's CPU (every PostgreSQL process, /proc: support/store-usage.ts) and the hub's own
 * CPU over that span. The configurations run in turn, `--rounds` times (medians); the cost per follower is the
 * slope between the fewest and the most followers, so what every configuration spends alike (the writer's
 * transactions) cancels out.
 * Run: `npm run bench -- fanout`, or `npx node bench/fanout.ts [--rounds 3] [--changes 1000] [--bytes 1000]`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type PgCluster, startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import { loadNote } from './support/machine.ts';
import { median, printResult, type ResultRow, round3 } from './support/protocol.ts';
import { clusterCpuSeconds, postmasterPid } from './support/store-usage.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    changes: { type: 'string' },
    bytes: { type: 'string', default: '1000' },
    listeners: { type: 'string', default: '4,50,200' },
    desks: { type: 'string', default: '4,50,200' },
    quick: { type: 'boolean', default: false },
  },
});
const ROUNDS = args.quick ? 1 : Math.max(3, Number(args.rounds));
const CHANGES = Number(args.changes ?? (args.quick ? 300 : 1000));
const BYTES = Number(args.bytes);
const counts = (list: string) => list.split(',').map(Number);
const LISTENERS = counts(args.listeners);
const DESKS = counts(args.desks);

/** At 1,000 deliveries a minute, each announcing its customer's row and the hub's marker (bench/README.md). */
const CHANGES_PER_SECOND = (1000 / 60) * 2;

const say = (line: string) => process.stdout.write(`${line}\n`);
const CHILD = path.join(import.meta.dirname, 'support', 'fanout-child.ts');

interface Child {
  process: ChildProcess;
  next(): Promise<Record<string, unknown>>;
}

function start(role: string, ...argv: Array<string | number>): Child {
  const child = fork(CHILD, [role, ...argv.map(String)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting: Array<(message: Record<string, unknown>) => void> = [];
  const early: Record<string, unknown>[] = [];
  child.on('message', (message: Record<string, unknown>) => {
    const take = waiting.shift();
    if (take) take(message);
    else early.push(message);
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const ready = early.shift();
      if (ready) return resolve(ready);
      waiting.push(resolve);
      child.once('exit', (code) => reject(new Error(`fanout-child ${role} exited (${code})`)));
    });
  return { process: child, next };
}

const stop = (child: Child) =>
  new Promise<void>((resolve) => {
    if (child.process.exitCode !== null) return resolve();
    child.process.once('exit', () => resolve());
    child.process.kill();
  });

interface Span {
  /** The store's CPU seconds per change. */
  store: number;
  /** The hub's CPU seconds per change (fan-out only). */
  hub: number;
}

/** Sends the changes and waits for every follower to have them all; the CPU spent meanwhile, per change. */
async function measure(cluster: PgCluster, followers: Child, hubCpu?: () => Promise<number>): Promise<Span> {
  const postmaster = postmasterPid(cluster.dataDir);
  const store0 = clusterCpuSeconds(postmaster);
  const hub0 = hubCpu ? await hubCpu() : 0;
  const all = followers.next();
  followers.process.send({ expect: CHANGES });
  const sender = start('sender', cluster.url(), CHANGES, BYTES);
  await sender.next();
  await all;
  const store = (clusterCpuSeconds(postmaster) - store0) / CHANGES;
  const hub = hubCpu ? ((await hubCpu()) - hub0) / CHANGES : 0;
  await stop(sender);
  return { store, hub };
}

async function direct(cluster: PgCluster, n: number): Promise<Span> {
  const listeners = start('listeners', cluster.url(), n);
  await listeners.next();
  try {
    return await measure(cluster, listeners);
  } finally {
    await stop(listeners);
  }
}

async function fannedOut(cluster: PgCluster, m: number): Promise<Span> {
  const hub = start('hub', cluster.url());
  const { port } = (await hub.next()) as { port: number };
  const desks = start('desks', port, m);
  await desks.next();
  const hubCpu = async () => {
    hub.process.send({ cpu: true });
    return ((await hub.next()) as { cpu: number }).cpu;
  };
  try {
    return await measure(cluster, desks, hubCpu);
  } finally {
    await stop(desks);
    await stop(hub);
  }
}

const us = (seconds: number) => `${round3(seconds * 1e6)} µs`;

/** The cost per follower per change: the slope between the fewest and the most followers' medians. */
function slope(points: Map<number, number[]>): { perFollower: number; base: number } {
  const sizes = [...points.keys()].sort((a, b) => a - b);
  const low = sizes[0]!;
  const high = sizes[sizes.length - 1]!;
  const perFollower = (median(points.get(high)!) - median(points.get(low)!)) / (high - low);
  return { perFollower, base: median(points.get(low)!) - perFollower * low };
}

async function main(): Promise<void> {
  const cluster = await startPgCluster({ maxConnections: Math.max(...LISTENERS) + 20 });
  const storeDirect = new Map<number, number[]>(LISTENERS.map((n) => [n, []]));
  const storeFanned = new Map<number, number[]>(DESKS.map((m) => [m, []]));
  const hubFanned = new Map<number, number[]>(DESKS.map((m) => [m, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, n] of LISTENERS.entries()) {
        const span = await direct(cluster, n);
        storeDirect.get(n)!.push(span.store);
        say(`round ${round + 1}: ${n} listening sessions: store ${us(span.store)} a change (${loadNote()})`);
        const m = DESKS[i];
        if (m === undefined) continue;
        const fanned = await fannedOut(cluster, m);
        storeFanned.get(m)!.push(fanned.store);
        hubFanned.get(m)!.push(fanned.hub);
        say(
          `round ${round + 1}: hub + ${m} desks: store ${us(fanned.store)}, hub ${us(fanned.hub)} a change`,
        );
      }
    }
  } finally {
    await cluster.stop();
  }
  report(slope(storeDirect), slope(storeFanned), slope(hubFanned));
}

function report(
  listen: ReturnType<typeof slope>,
  store: ReturnType<typeof slope>,
  hub: ReturnType<typeof slope>,
): void {
  const cores = (perChange: number) => round3(perChange * CHANGES_PER_SECOND);
  say(
    `\nper change: a listening session costs the store ${us(listen.perFollower)} (base ${us(listen.base)});`,
  );
  say(
    `fanned out: the store ${us(store.base)} a change and ${us(store.perFollower)} a desk (one session whatever`,
  );
  say(`the desks: what is left is noise), the hub ${us(hub.perFollower)} a desk (base ${us(hub.base)})`);
  say(
    `at ${round3(CHANGES_PER_SECOND)} changes a second (1,000 deliveries a minute), cores for the feed alone:`,
  );
  const rows: ResultRow[] = [];
  for (const desks of [50, 200, 500]) {
    const viaListen = cores(listen.base + listen.perFollower * desks);
    const viaHub = cores(hub.base + hub.perFollower * desks);
    say(
      `  ${desks} desks: direct LISTEN ${viaListen} of the store's cores; fanned out ${viaHub} of the hubs'`,
    );
    rows.push({
      figure: `change feed, ${desks} desks at 1,000 deliveries/min: store cores with direct LISTEN (hub fan-out: hub cores)`,
      goal: '— (on paper)',
      measured: `${viaListen} (${viaHub}); ${us(listen.perFollower)} per session per change, ${us(hub.perFollower)} per desk fanned out`,
      ratio: viaListen,
      verdict: 'pass',
    });
  }
  printResult(rows);
}

await main();
