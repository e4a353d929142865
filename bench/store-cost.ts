/**
 * The team store's cost per delivery (#38, "Store cost"): the team bench's set-up (team-bench-setup.ts: one
 * PostgreSQL with fsync on, two real hubs behind one front, the sandbox as the service) with `--desks` desks
 * open and following the store (their processes, team-desk-child.ts, doing no reviewer's work: what is
 * measured is what a delivery costs, not what a reviewer does), and pg_stat_statements loaded in the cluster.
 * Each of `--rounds` rounds resets the statistics, sends `--deliveries` signed webhook deliveries from a load
 * generator in a process of its own (team-load.ts, `--per-minute`, no bursts), waits until the hub has
 * processed every one and every desk's replica holds every change, then reads:
 * - the store's CPU: user + system time of every PostgreSQL process of the cluster (/proc), less the bench's
 *   sampler, ÷ deliveries; and beyond the team at rest (measured for `--idle-seconds` first);
 * - the statements the team's logins ran (pg_stat_statements, top level): calls, time, rows, per delivery.
 * Medians of the rounds in the rows; the statements of the median round printed as a Markdown table.
 * Run: `npm run bench -- store-cost`, or `npx node bench/store-cost.ts [--rounds 3] [--deliveries 300]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadNote } from './support/machine.ts';
import { atMost, median, printResult, type ResultRow } from './support/protocol.ts';
import {
  installStatements,
  readStatements,
  resetStatements,
  STATEMENT_SETTINGS,
  type StatementRow,
  statementTable,
  statementTotals,
} from './support/statements.ts';
import { type StoreUsage, watchStore } from './support/store-usage.ts';
import { setUpTeamBench, type TeamBench } from './support/team-bench-setup.ts';
import { type DeskFleet, startDeskFleet } from './support/team-desk-fleet.ts';
import { startTeamLoad } from './support/team-load-run.ts';
import { everyDeskCaughtUp } from './support/team-state.ts';

const { values: args } = parseArgs({
  options: {
    desks: { type: 'string', default: '4' },
    customers: { type: 'string', default: '5000' },
    live: { type: 'string', default: '300' },
    rounds: { type: 'string' },
    deliveries: { type: 'string' },
    'per-minute': { type: 'string', default: '600' },
    'idle-seconds': { type: 'string', default: '10' },
    quick: { type: 'boolean', default: false },
  },
});
const DESKS = Number(args.desks);
// --quick (as `npm run bench -- --quick` gives every bench): one round of 100.
const ROUNDS = Number(args.rounds ?? (args.quick ? 1 : 3));
const PER_MINUTE = Number(args['per-minute']);
const DELIVERIES = Number(args.deliveries ?? (args.quick ? 100 : 300));
const team = (login: string) => /^(desk|hub)_/.test(login);

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Round {
  deliveries: number;
  cpuMs: number;
  netMs: number;
  statements: StatementRow[];
  /** The store's CPU ms per delivery by role (the processes alive at the round's end: store-usage.ts). */
  byRole: Map<string, number>;
  load: string;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-store-cost-'));
const rows: ResultRow[] = [];
let bench: TeamBench | undefined;
let usage: StoreUsage | undefined;
let fleet: DeskFleet | undefined;
let admin: pg.Client | undefined;
try {
  say(
    `${DESKS} desks, ${ROUNDS} rounds of ${DELIVERIES} deliveries at ${PER_MINUTE} a minute; ${loadNote()}`,
  );
  bench = await setUpTeamBench({
    desks: DESKS,
    customers: Number(args.customers),
    live: Number(args.live),
    dir,
    say,
    settings: STATEMENT_SETTINGS,
  });
  admin = new pg.Client({ connectionString: bench.adminUrl });
  await admin.connect();
  await installStatements(admin);
  usage = await watchStore(bench.adminUrl, bench.cluster.dataDir, team);
  const journals = bench.desks.map((desk) => path.join(desk.dataDir, 'journal.db'));
  fleet = await startDeskFleet(
    bench.desks.map((desk) => ({ ...desk, drafting: false })),
    { perProcess: 1, everyMs: 250, draftEveryMs: 2_000, dir },
  );
  await everyDeskCaughtUp(admin, journals, 600_000);
  say(`${DESKS} desks open and caught up; ${loadNote()}`);

  const idleSpan = await usage.span();
  await sleep(Number(args['idle-seconds']) * 1000);
  const idle = await idleSpan.end();
  const idlePerSecond = (idle.total - (idle.byRole.get('the bench (this sampler)') ?? 0)) / idle.seconds;
  say(`the team at rest: the store spent ${idlePerSecond.toFixed(4)} CPU s a second`);

  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    rounds.push(await runRound(bench, admin, usage, journals, idlePerSecond));
    const last = rounds.at(-1)!;
    const totals = statementTotals(last.statements);
    say(
      `round ${round}: ${last.deliveries} deliveries; store CPU ${last.cpuMs.toFixed(2)} ms a delivery ` +
        `(${last.netMs.toFixed(2)} beyond the team at rest); statements ${(totals.calls / last.deliveries).toFixed(1)} ` +
        `a delivery, ${(totals.totalMs / last.deliveries).toFixed(3)} ms of execution (${last.load})`,
    );
  }
  const byCpu = [...rounds].sort((a, b) => a.cpuMs - b.cpuMs);
  const middle = byCpu[Math.floor(byCpu.length / 2)]!;
  say(`\nStatements of the median round (${middle.deliveries} deliveries, the team's logins):\n`);
  say(statementTable(middle.statements, middle.deliveries));
  say(`\nThe store's CPU per delivery in that round by role (ms; processes alive at its end, /proc):`);
  for (const [role, ms] of [...middle.byRole].sort((a, b) => b[1] - a[1])) {
    if (ms >= 0.005) say(`  ${role}: ${ms.toFixed(3)}`);
  }
  rows.push(...resultRows(rounds));
} finally {
  fleet?.kill();
  await admin?.end().catch(() => undefined);
  await usage?.close();
  await bench?.close();
  rmSync(dir, { recursive: true, force: true });
}
say('');
printResult(rows);

async function runRound(
  teamBench: TeamBench,
  db: pg.Client,
  store: StoreUsage,
  journals: readonly string[],
  idlePerSecond: number,
): Promise<Round> {
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  await resetStatements(db);
  const span = await store.span();
  const load = await startTeamLoad({
    url: teamBench.front.url,
    secret: teamBench.secret,
    serviceBase: teamBench.sandbox.baseUrl,
    customerIds: teamBench.deliverable,
    perMinute: PER_MINUTE,
    burst: 0,
    burstEverySeconds: 15,
    seconds: (DELIVERIES * 60) / PER_MINUTE,
    concurrency: 10,
    outcomesFile: path.join(dir, 'outcomes.json'),
  });
  const sent = await load.go();
  await everyDeskCaughtUp(db, journals, 600_000);
  const cpu = await span.end();
  const statements = await readStatements(db, team);
  const storeCpu = cpu.total - (cpu.byRole.get('the bench (this sampler)') ?? 0);
  return {
    deliveries: sent.sent,
    cpuMs: (storeCpu * 1000) / sent.sent,
    netMs: ((storeCpu - idlePerSecond * cpu.seconds) * 1000) / sent.sent,
    statements,
    byRole: new Map([...cpu.byRole].map(([role, seconds]) => [role, (seconds * 1000) / sent.sent])),
    load: `load ${loadAtStart}–${os.loadavg()[0]!.toFixed(1)}`,
  };
}

function resultRows(rounds: readonly Round[]): ResultRow[] {
  const cpu = median(rounds.map((r) => r.cpuMs));
  const net = median(rounds.map((r) => r.netMs));
  const calls = median(rounds.map((r) => statementTotals(r.statements).calls / r.deliveries));
  const exec = median(rounds.map((r) => statementTotals(r.statements).totalMs / r.deliveries));
  const each = (pick: (r: Round) => number) => rounds.map((r) => pick(r).toFixed(2)).join(', ');
  const loads = rounds.map((r) => r.load.replace('load ', '')).join(', ');
  return [
    atMost(
      `store cost: the store's CPU per delivery, ${DESKS} desks (all PostgreSQL processes, /proc; median of ${rounds.length} rounds)`,
      cpu,
      3,
      ' ms',
      `${cpu.toFixed(2)} ms (rounds ${each((r) => r.cpuMs)}; beyond the team at rest ${net.toFixed(2)}) (load ${loads})`,
    ),
    {
      figure: `store cost: statements per delivery, ${DESKS} desks (pg_stat_statements, top level, the team's logins)`,
      goal: '—',
      measured: `${calls.toFixed(1)} statements, ${exec.toFixed(3)} ms of execution (rounds ${each((r) => statementTotals(r.statements).totalMs / r.deliveries)} ms)`,
      ratio: Math.round(calls * 10) / 10,
      verdict: 'pass',
    },
  ];
}
