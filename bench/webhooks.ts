/**
 * Webhook ingest: signed deliveries into Vetted's listener (signature over the raw bytes, a durable
 * record before the 200, then the REAL reconciler GETting each customer from the sandbox running in
 * this process, as the embedded default runs it) against the least a durable listener must do
 * (support/durable-floor.ts), the ceiling this machine sets: goal 0.7 of it. A bare node:http server
 * answering 200 is sampled too, as a reference with no goal. The load generator runs in a process of its
 * own. Samples take turns (bare, Vetted, floor, bare, Vetted, floor…, 3 each) and the medians are
 * compared, at 50 and at 10 connections. After each Vetted sample, every event is processed
 * before the next sample starts; at the end every delivery answered 200 must be in the journal exactly
 * once and processed. During a flood the events table and the processing come behind the answers
 * (main/data/journal/inbox-backlog.ts): each sample also prints how long the processing took after the load
 * stopped, and the rate counting that time.
 * Run: `node bench/webhooks.ts [--seconds 4] [--rounds 3] [--customers 200] [--connections 50|10] [--topic t]`
 * (Node 24). Takes about 150 s.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { listenOnLoopback, startDurableFloor } from './support/durable-floor.ts';
import { type IngestRig, startIngestRig } from './support/ingest-rig.ts';
import { type LoadJob, type LoadOutcome, runLoad } from './support/load.ts';
import { loadNote } from './support/machine.ts';
import { atLeast, inTurn, median, printResult, type ResultRow } from './support/protocol.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    customers: { type: 'string', default: '200' },
    connections: { type: 'string' },
    // A topic Vetted only records (e.g. customer_funding_source_added): the ingest alone, no reconciler.
    topic: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP_SECONDS = 1;
const ROUNDS = Number(args.rounds);
const CUSTOMERS = Number(args.customers);
/**
 * Vetted against the least durable listener, sampled in the same turns (issue #29): a ratio to bare node:http
 * measured the machine (a faster one serves bare faster than any durable listener can keep up with).
 */
const GOAL_OF_FLOOR = 0.7;
const CONNECTIONS = [50, 10].filter(
  (connections) => args.connections === undefined || String(connections) === args.connections,
);

function bareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  return listenOnLoopback(server);
}

/**
 * CPU time of this thread (the desk's: listener, inbox, reconciler and the embedded sandbox) from now,
 * per request (warm-up included): unlike a rate, it hardly moves with the machine's load.
 */
function threadCpu(): { perRequest(outcome: LoadOutcome): number } {
  const start = process.threadCpuUsage();
  return {
    perRequest({ total, warmupTotal }) {
      const { user, system } = process.threadCpuUsage(start);
      return (user + system) / Math.max(total + warmupTotal, 1);
    },
  };
}

const load = (job: Omit<LoadJob, 'seconds' | 'warmupSeconds'>) =>
  runLoad({ ...job, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS });

/** A sample whose CPU per request (warm-up, load and nothing after) goes to `cpu`. */
async function measured(cpu: number[], job: Parameters<typeof load>[0]): Promise<LoadOutcome> {
  const started = threadCpu();
  const outcome = await load(job);
  cpu.push(started.perRequest(outcome));
  return outcome;
}

/** Every acknowledged id recorded once and processed (each request carried a new id). */
async function verify(rig: IngestRig, acknowledged: readonly string[]): Promise<string | null> {
  let missing = 0;
  let duplicated = 0;
  let unprocessed = 0;
  for (const id of acknowledged) {
    const event = await rig.journal.events.get(id);
    if (!event) missing++;
    else {
      if (event.duplicatesSeen !== 0) duplicated++;
      if (event.processedAt === null) unprocessed++;
    }
  }
  if (missing + duplicated + unprocessed === 0) return null;
  return `${missing} acknowledged events missing, ${duplicated} duplicated, ${unprocessed} unprocessed`;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-webhooks-'));
const rig = await startIngestRig({ customers: CUSTOMERS, secret: randomUUID() });
const bare = await bareServer();
const floor = await startDurableFloor(rig.secret, dir);
const rows: ResultRow[] = [];
let failure: string | null = null;
try {
  const webhook = {
    secret: rig.secret,
    serviceBase: rig.serviceBase,
    customerIds: rig.customerIds,
    ...(args.topic === undefined ? {} : { topic: args.topic }),
  };
  process.stdout.write(
    `real reconciler against the sandbox in this process (${CUSTOMERS} customers); load generator in its own process; ` +
      `${SECONDS} s per sample after ${WARMUP_SECONDS} s warm-up, ${ROUNDS} samples each, interleaved; ${loadNote()}\n`,
  );
  let sample = 0;
  for (const connections of CONNECTIONS) {
    const refreshesBefore = rig.receiver.processor.refreshes;
    const acknowledged: string[] = [];
    let delivered = 0;
    const bareCpu: number[] = [];
    const vettedCpu: number[] = [];
    const [bareRates = [], vettedRates = [], floorRates = []] = await inTurn(ROUNDS, [
      async () => (await measured(bareCpu, { url: bare.url, connections })).perSecond,
      async () => {
        const file = path.join(dir, `acknowledged-${sample++}.txt`);
        const cpu = threadCpu();
        const outcome = await load({ url: rig.listenerUrl, connections, webhook, acknowledgedFile: file });
        if (outcome.non2xx + outcome.errors > 0)
          failure ??= `${outcome.non2xx} non-2xx, ${outcome.errors} errors`;
        const started = performance.now();
        await rig.settle();
        const processingMs = performance.now() - started;
        const ids = readFileSync(file, 'utf8').split('\n').filter(Boolean);
        acknowledged.push(...ids);
        delivered += outcome.total + outcome.warmupTotal;
        vettedCpu.push(cpu.perRequest(outcome));
        process.stdout.write(
          `  c=${connections}: vetted ${outcome.perSecond.toFixed(0)}/s (p99 ${outcome.p99Ms} ms, ` +
            `${vettedCpu.at(-1)?.toFixed(0)} µs CPU per delivery on the desk's thread), ` +
            `processing finished ${processingMs.toFixed(0)} ms after the load stopped ` +
            `(${(outcome.total / (SECONDS + processingMs / 1000)).toFixed(0)}/s counting it); ${loadNote()}\n`,
        );
        return outcome.perSecond;
      },
      async () => (await load({ url: floor.url, connections, webhook })).perSecond,
    ]);
    const [bareMedian, vettedMedian, floorMedian] = [
      median(bareRates),
      median(vettedRates),
      median(floorRates),
    ];
    const ofBare = vettedMedian / bareMedian;
    const floorOfBare = floorMedian / bareMedian;
    const ofFloor = vettedMedian / floorMedian;
    const gets = rig.receiver.processor.refreshes - refreshesBefore;
    const { commits, writes, committingMs } = rig.receiver.writer.stats;
    process.stdout.write(
      `c=${connections}: bare ${bareRates.map((v) => v.toFixed(0)).join(', ')} req/s; ` +
        `vetted ${vettedRates.map((v) => v.toFixed(0)).join(', ')} events/s (${ofBare.toFixed(3)} of bare)\n` +
        `       the least durable listener (support/durable-floor.ts) ${floorRates.map((v) => v.toFixed(0)).join(', ')} req/s: ` +
        `${floorOfBare.toFixed(3)} of bare; Vetted reaches ${ofFloor.toFixed(3)} of it (goal ≥ ${GOAL_OF_FLOOR})\n` +
        `       CPU on the desk's thread per request (warm-up, load and processing; median): ` +
        `vetted ${median(vettedCpu).toFixed(0)} µs, bare ${median(bareCpu).toFixed(0)} µs\n` +
        `       ${delivered} deliveries served by ${gets} GETs; ${(writes / Math.max(commits, 1)).toFixed(1)} writes per commit so far, ` +
        `${(committingMs / Math.max(commits, 1)).toFixed(2)} ms per commit (log sync and journal write)\n`,
    );
    failure ??= await verify(rig, acknowledged);
    rows.push(
      atLeast(
        `webhook ingest, durable before 200, real reconciler, vs the least durable listener, c=${connections}`,
        ofFloor,
        GOAL_OF_FLOOR,
        `${ofFloor.toFixed(2)} (${vettedMedian.toFixed(0)} vs ${floorMedian.toFixed(0)}/s); ` +
          `of bare ${ofBare.toFixed(2)}, the floor ${floorOfBare.toFixed(2)}`,
      ),
    );
  }
  if (failure) {
    process.stdout.write(`FAILED: ${failure}\n`);
    rows.push({
      figure: 'every 200 recorded once and processed',
      goal: 'all',
      measured: failure,
      ratio: null,
      verdict: 'miss',
    });
  } else {
    process.stdout.write('every delivery answered 200 is in the journal exactly once, processed\n');
  }
} finally {
  await bare.close();
  await floor.close();
  await rig.close();
  rmSync(dir, { recursive: true, force: true });
}
printResult(rows);
