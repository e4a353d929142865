/**
 * Fifty desks on one store (#29): one PostgreSQL (fsync on), a leading hub and a standby (real processes),
 * `--desks` desks composed by the desk's own code (team-desk-child.ts: `createDesk` as browser mode composes
 * it, without a window), `--customers` customers in the store, webhook deliveries from a load generator in a
 * process of its own (team-load.ts: `--per-minute` with a burst of `--burst` in one second every
 * `--burst-every` s), every desk scrolling and searching its queue, one desk in ten submitting drafts; then
 * every desk taking the next unclaimed case at one instant (`--claim-rounds` times).
 *
 * One desk to a process by default (`--per-process 1`: 50 desks, 50 processes), as a team runs them: each desk
 * its own event loop, data directory, vault, journal and replica, its own pool and LISTEN sessions, joined as
 * its own reviewer, so a desk's queue window waits for nothing but its own work, and the store sees 50
 * separate clients. What is not as a team has it: the 50 processes share the machine's 2 cores with
 * PostgreSQL and both hubs (each reviewer has a computer of their own), so every latency here is an upper
 * bound; the bench prints the load average and the CPU each part spent. `--per-process N` puts N desks on
 * one event loop (less memory, but one desk's replica work then delays another's window).
 *
 * Setup in bench/support/team-bench-setup.ts; the figures and how each is counted in team-accounting.ts,
 * team-figures.ts and team-next-case.ts; bench/README.md "Fifty desks".
 * Run: `npm run bench -- team [--quick]`, or `npx node bench/team.ts [--quick] [options]` (Node 24).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createServiceClient } from '#main/data/service/index.ts';
import { floorCustomers, floorRounds } from './support/claims-floor.ts';
import { loadNote, machineNow } from './support/machine.ts';
import { printResult, type ResultRow } from './support/protocol.ts';
import { processCpuSeconds, type StoreUsage, watchStore } from './support/store-usage.ts';
import {
  accountChanges,
  installChangeLog,
  type Receipt,
  readChangeLog,
  spread,
} from './support/team-accounting.ts';
import { setUpTeamBench, type TeamBench } from './support/team-bench-setup.ts';
import type { TeamDeskResult } from './support/team-desk-child.ts';
import { type DeskFleet, startDeskFleet } from './support/team-desk-fleet.ts';
import {
  accountedRow,
  connectionsRow,
  type DraftsAccount,
  draftsRow,
  storeCpuRow,
  visibleRow,
  windowRow,
} from './support/team-figures.ts';
import { startTeamLoad } from './support/team-load-run.ts';
import { accountNextCases, nextCaseRows, unclaimedWaiting } from './support/team-next-case.ts';
import { everyDeskCaughtUp, replicaState, roleTakes } from './support/team-state.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    desks: { type: 'string' },
    'per-process': { type: 'string', default: '1' },
    // The desks' processes' nice value (0 to 19): 19 lets the store and the hubs have the cores first.
    'desk-nice': { type: 'string', default: '0' },
    customers: { type: 'string' },
    live: { type: 'string' },
    seconds: { type: 'string' },
    'per-minute': { type: 'string', default: '1000' },
    burst: { type: 'string', default: '100' },
    'burst-every': { type: 'string', default: '15' },
    'idle-seconds': { type: 'string', default: '10' },
    'window-every-ms': { type: 'string', default: '250' },
    'draft-every-ms': { type: 'string', default: '2000' },
    'claim-rounds': { type: 'string' },
    'claim-gap-ms': { type: 'string', default: '2000' },
  },
});
// --quick: a smoke run of the whole harness in about a minute (few desks, few customers, a short load).
const quick = args.quick;
const DESKS = Number(args.desks ?? (quick ? 4 : 50));
const CUSTOMERS = Number(args.customers ?? (quick ? 5_000 : 100_000));
const LIVE = Number(args.live ?? (quick ? 300 : 2_000));
const SECONDS = Number(args.seconds ?? (quick ? 20 : 120));
const PER_PROCESS = Number(args['per-process']);
const DRAFTING = Math.max(1, Math.round(DESKS / 10));

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load1 = () => machineNow().loadAverage[0];
/** The 1-minute load average every 5 s (as `uptime` shows it) from the start of a span: its range and median. */
function loadSampler() {
  const samples = [load1()];
  const timer = setInterval(() => samples.push(load1()), 5_000);
  return () => {
    clearInterval(timer);
    samples.push(load1());
    const sorted = [...samples].sort((a, b) => a - b);
    return `load ${sorted[0]}–${sorted.at(-1)}, median ${sorted[Math.floor(sorted.length / 2)]}`;
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-team-'));
const rows: ResultRow[] = [];
let bench: TeamBench | undefined;
let usage: StoreUsage | undefined;
let fleet: DeskFleet | undefined;
try {
  say(
    `${DESKS} desks (${PER_PROCESS} a process, nice ${args['desk-nice']}), ${CUSTOMERS} customers, ${loadNote()}`,
  );
  bench = await setUpTeamBench({ desks: DESKS, customers: CUSTOMERS, live: LIVE, dir, say });
  const admin = new pg.Client({ connectionString: bench.adminUrl });
  await admin.connect();
  // The store seeded, nothing delivered yet: from here the store logs each customer write, which the
  // accounting of changes seen on every desk is keyed by (team-accounting.ts).
  await installChangeLog(admin);
  // The team's logins are its desks' and hubs' (team-bench-setup.ts names them desk_NN_…, hub_N_…).
  usage = await watchStore(bench.adminUrl, bench.cluster.dataDir, (login) => /^(desk|hub)_/.test(login));
  const journals = bench.desks.map((desk) => path.join(desk.dataDir, 'journal.db'));
  let started = performance.now();
  fleet = await startDeskFleet(
    bench.desks.map((desk, i) => ({ ...desk, drafting: i % Math.round(DESKS / DRAFTING) === 0 })),
    {
      perProcess: PER_PROCESS,
      everyMs: Number(args['window-every-ms']),
      draftEveryMs: Number(args['draft-every-ms']),
      dir,
      nice: Number(args['desk-nice']),
    },
  );
  await everyDeskCaughtUp(admin, journals, 600_000);
  say(
    `${DESKS} desks open and caught up in ${((performance.now() - started) / 1000).toFixed(1)} s; ${loadNote()}`,
  );

  // The team at rest: every process up, nobody working, no deliveries.
  const idleSpan = await usage.span();
  await sleep(Number(args['idle-seconds']) * 1000);
  const idle = await idleSpan.end();
  say(
    `the team at rest: the store spent ${(idle.total / idle.seconds).toFixed(3)} CPU s a second; ${loadNote()}`,
  );

  const load = await startTeamLoad({
    url: bench.front.url,
    secret: bench.secret,
    serviceBase: bench.sandbox.baseUrl,
    customerIds: shuffled(bench.deliverable),
    perMinute: Number(args['per-minute']),
    burst: Number(args.burst),
    burstEverySeconds: Number(args['burst-every']),
    seconds: SECONDS,
    concurrency: 10,
    outcomesFile: path.join(dir, 'outcomes.json'),
  });
  const loadDuringLoad = loadSampler();
  const pids = [...fleet.pids, ...bench.hubs.map((hub) => hub.child.pid ?? 0)];
  const cpuAtStart = pids.map(processCpuSeconds);
  const span = await usage.span();
  started = performance.now();
  await fleet.start();
  const sent = await load.go();
  await fleet.stop();
  say(
    `${sent.sent} deliveries in ${((performance.now() - started) / 1000).toFixed(1)} s (${sent.redelivered} sent ` +
      `again, ${sent.unacknowledged} never acknowledged; the schedule ran at most ${sent.maxLateMs} ms late); ${loadNote()}`,
  );
  started = performance.now();
  const store = await everyDeskCaughtUp(admin, journals, 900_000, { orAsItIs: true });
  say(
    store.caughtUp
      ? `every desk caught up ${((performance.now() - started) / 1000).toFixed(1)} s after the last delivery`
      : `the desks had not caught up 900 s after the last delivery (${store.unprocessed} events not processed yet)`,
  );
  const cpu = await span.end();
  const cpuOf = pids.map((pid, i) => processCpuSeconds(pid) - cpuAtStart[i]!);
  const loadSpan = loadDuringLoad();
  const replicas = journals.map(replicaState);

  // Claims under contention: every desk takes the next case at one instant, `--claim-rounds` times.
  // The floor's rounds in between the desks' (half a gap after each), on connections of their own.
  const waiting = await unclaimedWaiting(admin);
  const claimRounds = Number(args['claim-rounds'] ?? (quick ? 10 : 5));
  const rounds = { at: Date.now() + 2_000, rounds: claimRounds, gapMs: Number(args['claim-gap-ms']) };
  const floorIds = await floorCustomers(admin, DESKS * (claimRounds + 1));
  const loadDuringClaims = loadSampler();
  const [takes, floorMs] = await Promise.all([
    fleet.nextCases(rounds),
    floorRounds(
      {
        url: bench.adminUrl,
        sealer: bench.sealer,
        clients: DESKS,
        ...rounds,
        at: rounds.at + rounds.gapMs / 2,
      },
      floorIds,
    ),
  ]);
  const claimLoad = loadDuringClaims();
  const nextCases = await accountNextCases(
    admin,
    bench.desks.map((desk, i) => ({ login: desk.login, takes: takes[i] ?? [] })),
    waiting,
  );
  say(`claims.next: ${waiting} cases waited; errors: ${nextCases.errors.slice(0, 3).join('; ') || 'none'}`);
  const results = await fleet.close();
  fleet = undefined;

  // What the hub received, from its own records: each delivery once, stamped as it was recorded.
  const ids = [...new Set(sent.outcomes.map((o) => o.id))];
  const { rows: recorded } = await admin.query<{
    customer_id: string;
    received_at: string; // numeric arrives as a string
    duplicates: number;
  }>(
    `SELECT customer_id, extract(epoch FROM received_at) * 1000 AS received_at, duplicates_seen AS duplicates
       FROM vetted.events WHERE id = ANY($1::text[])`,
    [ids],
  );
  const { rows: processing } = await admin.query<{ ms: number }>(
    `SELECT extract(epoch FROM processed_at - received_at) * 1000 AS ms FROM vetted.events WHERE id = ANY($1::text[])`,
    [ids],
  );
  const hubMs = spread(processing.map((row) => Number(row.ms)));
  say(`the hub's receipt → event processed: p50 ${hubMs.p50.toFixed(1)} ms, p99 ${hubMs.p99.toFixed(1)} ms`);
  const receipts: Receipt[] = recorded.map((r) => ({
    customerId: r.customer_id,
    receivedAt: Number(r.received_at),
  }));
  const roleTaken = roleTakes(
    bench.hubs.map((hub) => hub.dir),
    sent.startedAt,
  );
  // Information only: a hub taking the role refreshes every case in progress, new changes every desk shows.
  say(
    `the listener role was taken ${roleTaken.length} times during the load (a hub's log: "took the listener role")`,
  );
  const named = [...new Set(receipts.map((r) => r.customerId))];
  const changes = await readChangeLog(admin, named);
  const account = accountChanges(receipts, changes, results);
  say(
    `the store logged ${changes.length} writes of the ${named.length} customers ${receipts.length} deliveries ` +
      `named; ${account.noChange} deliveries with no write after them`,
  );
  const windowMs = results.flatMap((r) => r.windowMs);
  const worstDeskP99 = Math.max(...results.map((r) => spread(r.windowMs).p99));
  const equal = replicas.filter((r) => r.customers === store.customers && r.seqSum === store.seqSum).length;
  const drafts = await accountDrafts(admin, bench, results);
  const peaks = usage.peaks();
  const peakOf = (hub: boolean) =>
    Math.max(
      0,
      ...[...peaks.byLogin].filter(([login]) => login.startsWith(hub ? 'hub_' : 'desk_')).map(([, n]) => n),
    );
  const benchCpu = cpu.byRole.get('the bench (this sampler)') ?? 0;
  const storeCpu = cpu.total - benchCpu;
  const perDelivery = (storeCpu * 1000) / sent.sent;
  const net = ((storeCpu - (idle.total / idle.seconds) * cpu.seconds) * 1000) / sent.sent;

  say(
    `\nreceived ${recorded.length} of ${ids.length} deliveries (${recorded.filter((r) => r.duplicates > 0).length} seen again)`,
  );
  say(`window calls: ${windowMs.length}, errors ${results.reduce((n, r) => n + r.windowErrors.length, 0)}`);
  say(
    `draft errors: ${
      results
        .flatMap((r) => r.draftErrors)
        .slice(0, 5)
        .join('; ') || 'none'
    }`,
  );
  say(`peak connections by application: ${JSON.stringify(Object.fromEntries(peaks.byApplication))}`);
  say(
    `store CPU over ${cpu.seconds.toFixed(1)} s: ${cpu.total.toFixed(2)} s; by role (processes alive at the end):`,
  );
  for (const [role, seconds] of [...cpu.byRole].sort((a, b) => b[1] - a[1]))
    say(`  ${role}: ${seconds.toFixed(2)} s`);
  const deskTotal = cpuOf.slice(0, cpuOf.length - bench.hubs.length).reduce((a, b) => a + b, 0);
  const [leaderCpu = 0, standbyCpu = 0] = cpuOf.slice(cpuOf.length - bench.hubs.length);
  say(
    `CPU per delivery: the store ${perDelivery.toFixed(2)} ms, all desks ${((deskTotal * 1000) / sent.sent).toFixed(2)} ms ` +
      `(${((deskTotal * 1000) / sent.sent / DESKS).toFixed(3)} ms a desk), hub_1 (led at the start) ${((leaderCpu * 1000) / sent.sent).toFixed(2)} ms, ` +
      `hub_2 ${((standbyCpu * 1000) / sent.sent).toFixed(2)} ms; desks ${(deskTotal / cpu.seconds).toFixed(2)} cores over the span`,
  );
  const teamRows: ResultRow[] = [
    windowRow(windowMs, worstDeskP99, loadSpan),
    visibleRow(account, loadSpan),
    accountedRow(account, equal, DESKS, loadSpan),
    draftsRow(drafts, loadSpan),
    connectionsRow(
      { total: peaks.total, desk: peakOf(false), hub: peakOf(true) },
      DESKS,
      bench.hubs.length,
      loadSpan,
    ),
    storeCpuRow(perDelivery, net, sent.sent, DESKS, loadSpan),
    ...nextCaseRows(nextCases, DESKS, floorMs, claimLoad),
  ];
  rows.push(...teamRows.map((row) => ({ ...row, figure: `${DESKS} desks: ${row.figure}` })));
  await admin.end();
} finally {
  fleet?.kill();
  await usage?.close();
  await bench?.close();
  rmSync(dir, { recursive: true, force: true });
}
for (const row of rows) say(`${row.verdict === 'pass' ? 'pass' : 'MISS'}  ${row.figure}: ${row.measured}`);
printResult(rows);

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Each submitted draft: its team outbox row created, one customer with its e-mail on the service. */
async function accountDrafts(
  db: pg.Client,
  team: TeamBench,
  results: TeamDeskResult[],
): Promise<DraftsAccount> {
  const drafts = results.flatMap((r) => r.drafts);
  const { rows: outbox } = await db.query<{
    draft_id: string;
    state: string;
    customer_id: string | null;
    duplicate_of: string | null;
  }>(
    'SELECT draft_id, state, customer_id, duplicate_of FROM vetted.team_outbox WHERE draft_id = ANY($1::text[])',
    [drafts.map((d) => d.draftId)],
  );
  const rowOf = new Map(outbox.map((row) => [row.draft_id, row]));
  const service = createServiceClient(team.sandbox);
  let lost = 0;
  let doubled = 0;
  try {
    for (const draft of drafts) {
      const row = rowOf.get(draft.draftId);
      const page = await service.customers.list({ email: draft.email, limit: 10 });
      const onService = 'unsupported' in page ? [] : page.customers;
      if (row?.state !== 'created' || onService.length === 0 || onService[0]?.id !== row.customer_id) lost++;
      if (onService.length > 1 || row?.duplicate_of) doubled++;
    }
  } finally {
    await service.close();
  }
  return {
    submitted: drafts.length,
    desks: results.filter((r) => r.drafts.length > 0).length,
    lost,
    doubled,
  };
}
