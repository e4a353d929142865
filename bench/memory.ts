/**
 * Memory after a long day: a whole desk in browser mode takes 50,000 signed deliveries (the load
 * generator in its own process, about 200 customers, the real reconciler against the embedded sandbox)
 * and 10,000 drafts (created, filled in, submitted and sent by the outbox). RSS and the JavaScript heap
 * after a warm-up (read as heldMemory says) are compared with the same after all that: goal within 10 %.
 * Run: `node bench/memory.ts [--deliveries 50000] [--drafts 10000]` (Node 24). Takes several minutes.
 */

import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { samplePerson } from '#test/support/person.ts';
import { type BenchDesk, startBenchDesk } from './support/browser-desk.ts';
import { runLoad } from './support/load.ts';
import { loadNote } from './support/machine.ts';
import { atMost, printResult, type ResultRow } from './support/protocol.ts';

const { values: args } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '50000' },
    drafts: { type: 'string', default: '10000' },
  },
});
const DELIVERIES = Number(args.deliveries);
const DRAFTS = Number(args.drafts);
const CUSTOMERS = 200;
const GOAL = 1.1;

// A bench started without --expose-gc (as `npm run bench` starts it) can still ask for a full GC.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: string; execution: string; flavor: string }) => void;

type Memory = { rss: number; heap: number };

/** This process's memory as the desk reports it (`app.metrics`), right after a full GC. */
async function memoryAfter(bench: BenchDesk, collect: () => void): Promise<Memory> {
  collect();
  const { memory } = await bench.call('app.metrics');
  return { rss: memory.rssBytes, heap: memory.heapUsedBytes };
}

/**
 * Memory the desk holds on to, read the same way at the start and the end: after V8's memory-reducing
 * full GC, the one it runs by itself once the desk idles (its memory reducer) or the system runs short.
 * After a burst V8 keeps the young generation it grew (64 → 128 MiB here) and freed pages for reuse until
 * then; after a plain full GC those count as growth, and that figure is printed too.
 */
async function heldMemory(bench: BenchDesk, when: string): Promise<Memory> {
  const plain = await memoryAfter(bench, () => gc());
  process.stdout.write(`${when}, after a plain full GC: RSS ${mib(plain.rss)}, heap ${mib(plain.heap)}\n`);
  return memoryAfter(bench, () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }));
}

async function deliveries(bench: BenchDesk, amount: number, customerIds: string[]): Promise<void> {
  const { listenerUrl, secret } = await bench.listenerSubscription();
  const serviceBase = bench.desk.connection().status().baseUrl ?? 'http://127.0.0.1';
  const outcome = await runLoad({
    url: listenerUrl,
    connections: 10,
    seconds: 1,
    warmupSeconds: 0,
    amount,
    webhook: { secret, serviceBase, customerIds },
  });
  if (outcome.non2xx + outcome.errors > 0)
    throw new Error(`${outcome.non2xx + outcome.errors} deliveries failed`);
  // Everything recorded is processed before memory is read again.
  await until(bench, async () => (await bench.call('app.metrics')).webhooks.reconcileBacklog === 0);
}

async function drafts(bench: BenchDesk, count: number, offset: number): Promise<void> {
  for (let start = 0; start < count; start += 1000) {
    const ids: string[] = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      const { id } = await bench.call('drafts.create');
      const n = offset + i;
      await bench.call('drafts.save', {
        id,
        form: samplePerson('Memory', `Draft${n}`, `memory-${n}@example.com`),
      });
      ids.push(id);
    }
    await bench.call('drafts.submit', { ids });
    await until(bench, async () => {
      const { counts } = await bench.call('outbox.status');
      return counts.queued === 0 && counts.sending === 0;
    });
  }
  // The sandbox reviews each new customer a minute later, and those webhooks would still be arriving when
  // memory is read: its reviews are finished now (as the Sandbox panel's button does), and processed.
  await bench.call('sandbox.finishReviews');
  await until(bench, async () => {
    const { webhooks } = await bench.call('app.metrics');
    return webhooks.reconcileBacklog === 0 && webhooks.eventsBehind === 0 && webhooks.inboxBacklog === 0;
  });
}

async function until(bench: BenchDesk, done: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 600_000; waited += 250) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await bench.close();
  throw new Error('Gave up waiting after 10 minutes.');
}

const bench = await startBenchDesk();
const rows: ResultRow[] = [];
try {
  const client = bench.desk.connection().client();
  const customerIds: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    customerIds.push(
      (await client.customers.create(samplePerson('Bench', `Memory${i}`, `memory-customer-${i}@example.com`)))
        .id,
    );
  }
  // Warm-up: every path taken once at scale (JIT, caches, pools), then the starting point.
  await deliveries(bench, 2_000, customerIds);
  await drafts(bench, 500, 0);
  const start = await heldMemory(bench, 'after warm-up');
  process.stdout.write(
    `after warm-up, memory-reducing GC: RSS ${mib(start.rss)}, heap ${mib(start.heap)}; ${loadNote()}\n`,
  );

  const began = performance.now();
  await deliveries(bench, DELIVERIES, customerIds);
  process.stdout.write(`${DELIVERIES} deliveries processed in ${seconds(began)}; ${loadNote()}\n`);
  const draftsBegan = performance.now();
  await drafts(bench, DRAFTS, 500);
  process.stdout.write(`${DRAFTS} drafts sent in ${seconds(draftsBegan)}; ${loadNote()}\n`);
  const end = await heldMemory(bench, 'after the work');
  const { webhooks, outbox } = await bench.call('app.metrics');
  process.stdout.write(
    `after the work, memory-reducing GC: RSS ${mib(end.rss)}, heap ${mib(end.heap)}; ${webhooks.deliveries} deliveries, ` +
      `${webhooks.refreshes} refreshes, outbox ${JSON.stringify(outbox)}\n`,
  );
  const rss = end.rss / start.rss;
  const heap = end.heap / start.heap;
  const work = `${DELIVERIES.toLocaleString('en-US')} deliveries, ${DRAFTS.toLocaleString('en-US')} drafts`;
  rows.push(
    atMost(
      `RSS after ${work}, ÷ start`,
      rss,
      GOAL,
      '',
      `${rss.toFixed(3)} (${mib(start.rss)} → ${mib(end.rss)})`,
    ),
    atMost(
      `JS heap after ${work}, ÷ start`,
      heap,
      GOAL,
      '',
      `${heap.toFixed(3)} (${mib(start.heap)} → ${mib(end.heap)})`,
    ),
  );
} finally {
  await bench.close();
}
printResult(rows);

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}
