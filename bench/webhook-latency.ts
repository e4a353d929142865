/**
 * Delivery to screen: signed deliveries at a steady 100 a second into a whole desk in browser mode
 * (embedded sandbox, real reconciler), each about a customer the desk has not seen yet, so each ends in
 * one `customer.updated` on the browser host's event stream: what the open page receives. The sender
 * and the event-stream client run in a process of their own and share its clock. Once on a quiet
 * machine, once with a busy core (another process spinning). Goal: p99 ≤ 20 ms both times. Each run
 * begins with 20 deliveries that are not counted: the sender's process is new each time.
 * Run: `node bench/webhook-latency.ts [--seconds 8] [--rate 100]` (Node 24). Takes about 60 s.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { samplePerson } from '#test/support/person.ts';
import { startBenchDesk } from './support/browser-desk.ts';
import { loadNote } from './support/machine.ts';
import { atMost, printResult, quantile, type ResultRow } from './support/protocol.ts';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '8' }, rate: { type: 'string', default: '100' } },
});
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const GOAL_MS = 20;
/** Deliveries sent first in each run and not counted (see latency-child.ts). */
const WARM_UP = 20;
const CHILD = path.join(import.meta.dirname, 'support', 'latency-child.ts');

const bench = await startBenchDesk();

type Measured = { latencies: number[]; missing: number; failures: number; seconds: number };
function measure(
  customerIds: string[],
  warmUpIds: string[],
  job: Record<string, unknown>,
): Promise<Measured> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CHILD, JSON.stringify({ ...job, customerIds, warmUpIds })],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`latency client failed: ${stderr || error.message}`));
        resolve(JSON.parse(stdout.trimEnd().split('\n').pop() ?? '{}') as Measured);
      },
    );
  });
}

const rows: ResultRow[] = [];
try {
  const { id, listenerUrl, secret } = await bench.listenerSubscription();
  // The sandbox would tell the desk of each customer created below: paused, it keeps those deliveries.
  await bench.call('webhooks.setPaused', { id, paused: true });
  const perRun = Math.round(SECONDS * RATE);
  const client = bench.desk.connection().client();
  const customerIds: string[] = [];
  for (let i = 0; i < (perRun + WARM_UP) * 2; i++) {
    customerIds.push(
      (await client.customers.create(samplePerson('Bench', `Latency${i}`, `latency-${i}@example.com`))).id,
    );
  }
  const job = {
    listenerUrl,
    eventsUrl: bench.eventsUrl,
    secret,
    serviceBase: bench.desk.connection().status().baseUrl ?? 'http://127.0.0.1',
    perSecond: RATE,
    graceMs: 10_000,
  };
  process.stdout.write(
    `${perRun} deliveries at ${RATE}/s per run (after ${WARM_UP} not counted), each a new customer; ${loadNote()}\n`,
  );

  const idsOfRun = (n: number) => {
    const first = n * (perRun + WARM_UP);
    return {
      warmUp: customerIds.slice(first, first + WARM_UP),
      ids: customerIds.slice(first + WARM_UP, first + WARM_UP + perRun),
    };
  };
  const runs: Array<{ name: string; busy: boolean; ids: string[]; warmUp: string[] }> = [
    { name: 'quiet', busy: false, ...idsOfRun(0) },
    { name: 'with a busy core', busy: true, ...idsOfRun(1) },
  ];
  for (const run of runs) {
    // A separate process spinning: one of the two cores is taken for the whole run.
    const spinner = run.busy ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) : null;
    try {
      const measured = await measure(run.ids, run.warmUp, job);
      const p50 = quantile(measured.latencies, 0.5);
      const p99 = quantile(measured.latencies, 0.99);
      process.stdout.write(
        `${run.name}: ${measured.latencies.length} pushed, ${measured.missing} never pushed, ${measured.failures} refused; ` +
          `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...measured.latencies).toFixed(1)} ms; ${loadNote()}\n`,
      );
      const complete = measured.missing === 0 && measured.failures === 0;
      const row = atMost(
        `delivery to customer.updated pushed, ${RATE}/s, page open, ${run.name}`,
        p99,
        GOAL_MS,
        ' ms',
        `p99 ${p99.toFixed(1)} ms (p50 ${p50.toFixed(1)})${complete ? '' : `, ${measured.missing + measured.failures} not pushed`}`,
      );
      rows.push(complete ? row : { ...row, verdict: 'miss' });
    } finally {
      spinner?.kill('SIGKILL');
    }
  }
  const { eventToScreen } = (await bench.call('app.metrics')).webhooks;
  process.stdout.write(
    `app.metrics event-to-screen (in main, arrival to push): p50 ${eventToScreen.p50Ms} ms, p99 ${eventToScreen.p99Ms} ms over ${eventToScreen.samples}\n`,
  );
} finally {
  await bench.close();
}
printResult(rows);
