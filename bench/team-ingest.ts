/**
 * The team path's ingest (#29): signed deliveries into the leading hub (a real hub process, `scripts/hub.ts run`,
 * the real core: listener, the team inbox on PostgreSQL, the reconciler GETting each customer from the sandbox
 * in this process and writing it to the team store) against the least a listener durable in PostgreSQL must do
 * (support/pg-floor.ts, a process of its own: signature, one INSERT … ON CONFLICT per group, its commit, 200),
 * both on one throwaway cluster (fsync on by default, as a server commits). The load generator runs in a
 * process of its own. Samples take turns (floor, hub, floor, hub…) and the medians are compared, at 50 and at
 * 10 connections. After each hub sample every event is processed before the next sample starts; at the end
 * every delivery the hub answered 200 must be in the team store exactly once and processed. CPU per delivery
 * of each listener's process (from /proc, load and nothing after) is printed beside the rates.
 * Run: `npx node bench/team-ingest.ts [--seconds 4] [--rounds 5] [--customers 200] [--connections 50|10]
 * [--fsync on|off] [--profile-dir DIR]` (Node 24; `--profile-dir` writes the hub's `--cpu-prof` there).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createServiceClient } from '#main/data/service/index.ts';
import { startSandbox } from '#sandbox/index.ts';
import { samplePerson } from '#test/support/person.ts';
import { startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import { startHubFleet } from '#test/support/team/hub-fleet.ts';
import { type LoadOutcome, runLoad } from './support/load.ts';
import { loadNote } from './support/machine.ts';
import type { PgFloorJob } from './support/pg-floor.ts';
import { atLeast, inTurn, median, printResult, type ResultRow } from './support/protocol.ts';
import { teamSubscriptionSecret } from './support/team-secret.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '5' },
    customers: { type: 'string', default: '200' },
    connections: { type: 'string' },
    fsync: { type: 'string', default: 'on' },
    'profile-dir': { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP_SECONDS = 1;
const GOAL_OF_FLOOR = 0.7;
const CONNECTIONS = [50, 10].filter(
  (connections) => args.connections === undefined || String(connections) === args.connections,
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** User + system CPU of a process so far, in µs (from /proc: clock ticks of 10 ms). */
function processCpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The floor's process: started, its URL read from its first line. */
async function startFloor(job: PgFloorJob) {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'support/pg-floor.ts'), JSON.stringify(job)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error('the PostgreSQL floor ended before listening');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: first.value,
    pid: child.pid!,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-team-ingest-'));
const cluster = await startPgCluster({ fsync: args.fsync !== 'off' });
const sandbox = await startSandbox({ port: 0 });
const rows: ResultRow[] = [];
const closing: Array<() => Promise<void>> = [];
let failure: string | null = null;
try {
  const adminUrl = await cluster.createDatabase('ingest');
  const service = createServiceClient(sandbox);
  const customerIds: string[] = [];
  for (let i = 0; i < Number(args.customers); i++) {
    customerIds.push(
      (await service.customers.create(samplePerson('Bench', `Team${i}`, `team-${i}@example.com`))).id,
    );
  }
  await service.close();
  // The hub is reached directly (no front): the front would be a cost of the bench's, not of the hub's.
  const fleet = await startHubFleet(adminUrl, {
    hubs: 1,
    service: sandbox,
    publicUrl: 'http://127.0.0.1:9/webhooks',
    retrySeconds: 5,
  });
  closing.push(() => fleet.close());
  const options = process.env.NODE_OPTIONS;
  if (args['profile-dir']) process.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${args['profile-dir']}`;
  const hub = fleet.start(0);
  if (options === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = options;
  const hubUrl = await hub.leading();
  closing.unshift(async () => {
    // SIGTERM: the hub stops as it does for its administrator (and writes its profile when asked for one).
    hub.child.kill('SIGTERM');
    await hub.exited;
  });
  const secret = await teamSubscriptionSecret(adminUrl, fleet.keyFile);
  const floor = await startFloor({ connectionString: adminUrl, secret });
  closing.unshift(() => floor.close());
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();
  closing.unshift(() => db.end());
  const unprocessed = async () =>
    Number((await db.query('SELECT count(*) AS n FROM vetted.events WHERE processed_at IS NULL')).rows[0].n);

  const webhook = { secret, serviceBase: sandbox.baseUrl, customerIds };
  process.stdout.write(
    `1 hub process (real core) and the PostgreSQL floor in a process of its own, one cluster (fsync ${args.fsync}); ` +
      `load generator in its own process; ${SECONDS} s per sample after ${WARMUP_SECONDS} s warm-up, ` +
      `${args.rounds} samples each, in turn; ${loadNote()}\n`,
  );
  let sample = 0;
  for (const connections of CONNECTIONS) {
    const acknowledged: string[] = [];
    const cpu = { hub: [] as number[], floor: [] as number[] };
    const sampled = async (who: 'hub' | 'floor', pid: number, url: string): Promise<number> => {
      const file = path.join(dir, `acknowledged-${sample++}.txt`);
      const before = processCpuUs(pid);
      const outcome: LoadOutcome = await runLoad({
        url,
        connections,
        webhook,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        acknowledgedFile: file,
      });
      cpu[who].push((processCpuUs(pid) - before) / Math.max(outcome.total + outcome.warmupTotal, 1));
      if (outcome.non2xx + outcome.errors > 0)
        failure ??= `${who}: ${outcome.non2xx} non-2xx, ${outcome.errors} errors`;
      let processing = '';
      if (who === 'hub') {
        acknowledged.push(...readFileSync(file, 'utf8').split('\n').filter(Boolean));
        const started = performance.now();
        // Polled with a bound: the next sample starts on a hub with nothing left to do.
        for (let waited = 0; (await unprocessed()) > 0; waited += 100) {
          if (waited > 120_000) throw new Error('the hub did not process its events within 120 s');
          await sleep(100);
        }
        processing = `, processed ${(performance.now() - started).toFixed(0)} ms after the load`;
      }
      process.stdout.write(
        `  c=${connections} ${who}: ${outcome.perSecond.toFixed(0)}/s (p99 ${outcome.p99Ms} ms, ` +
          `${cpu[who].at(-1)!.toFixed(0)} µs CPU per delivery in its process${processing}); ${loadNote()}\n`,
      );
      return outcome.perSecond;
    };
    const [floorRates = [], hubRates = []] = await inTurn(Number(args.rounds), [
      () => sampled('floor', floor.pid, floor.url),
      () => sampled('hub', hub.child.pid!, hubUrl),
    ]);
    const ratio = median(hubRates) / median(floorRates);
    process.stdout.write(
      `c=${connections}: floor ${floorRates.map((v) => v.toFixed(0)).join(', ')}/s; hub ${hubRates.map((v) => v.toFixed(0)).join(', ')}/s; ` +
        `hub ÷ floor ${ratio.toFixed(3)} (goal ≥ ${GOAL_OF_FLOOR}); CPU per delivery (median) hub ${median(cpu.hub).toFixed(0)} µs, ` +
        `floor ${median(cpu.floor).toFixed(0)} µs; ${loadNote()}\n`,
    );
    const stored = await db.query<{ n: string; duplicated: string; unprocessed: string }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE duplicates_seen > 0) AS duplicated,
              count(*) FILTER (WHERE processed_at IS NULL) AS unprocessed
         FROM vetted.events WHERE id = ANY($1::text[])`,
      [acknowledged],
    );
    const { n, duplicated, unprocessed: left } = stored.rows[0]!;
    if (Number(n) !== acknowledged.length || Number(duplicated) + Number(left) > 0)
      failure ??= `c=${connections}: ${acknowledged.length} acknowledged, ${n} in the store, ${duplicated} duplicated, ${left} unprocessed`;
    rows.push(
      atLeast(
        `team ingest: the hub into PostgreSQL vs the least durable PostgreSQL listener, c=${connections}`,
        ratio,
        GOAL_OF_FLOOR,
        `${ratio.toFixed(2)} (${median(hubRates).toFixed(0)} vs ${median(floorRates).toFixed(0)}/s); ` +
          `CPU per delivery ${median(cpu.hub).toFixed(0)} vs ${median(cpu.floor).toFixed(0)} µs`,
      ),
    );
  }
  if (failure) {
    process.stdout.write(`FAILED: ${failure}\n`);
    rows.push({
      figure: 'every 200 of the hub in the store once, processed',
      goal: 'all',
      measured: failure,
      ratio: null,
      verdict: 'miss',
    });
  } else {
    process.stdout.write(
      'every delivery the hub answered 200 is in the team store exactly once, processed\n',
    );
  }
} finally {
  for (const close of closing) await close().catch(() => {});
  await sandbox.close();
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
printResult(rows);
