/**
 * Team mode's claims in the queue (#28), on a desk's replica of 1,000 and 100,000 customers, 250 of them
 * claimed by five reviewers (50 cases each: a team holds what it works on, not the queue):
 * - the first screen of "Mine": 100k ÷ 1k ≤ 1.5, as the queue's own screens (it reads the reviewer's claims);
 * - the first screen of "Unclaimed": ≤ 5 ms at 100k. Its counts are the sections' kept counts less the cases
 *   someone holds, so it reads every claim: the same 250 at both sizes, but at 100k their customers are
 *   scattered over a file the page cache does not hold, which a ratio would count against the queue;
 * - the work by who holds it (`claims.counts`): ≤ 10 ms at 100k, a lead's panel refreshed on every change.
 * Samples of the two sizes alternate; medians. Last line: `RESULT {...}` (see bench/support/result.ts).
 *
 *   node bench/claims.ts [--reps 100]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_AGEING_TARGETS } from '#contract/queue-view.ts';
import type { ReplicaClaim } from '#main/data/journal/claims.ts';
import { type ClaimScope, dueBefore, openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { atMost } from './support/protocol.ts';
import { seedQueueJournal } from './support/queue-journal.ts';
import { growthRow, median, printResult, type ResultRow } from './support/result.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '100' } } });
const REPS = Number(values.reps);
const SMALL = 1_000;
const LARGE = 100_000;
const HOLDERS = ['ana', 'ben', 'cho', 'dev', 'eli'];
const CLAIMED = 250;
const DUE = dueBefore(DEFAULT_AGEING_TARGETS, new Date('2026-03-01T12:00:00.000Z'));
const first = { section: 'all', search: '', offset: 0, limit: 50 } as const;

async function build(dir: string, size: number): Promise<SqliteJournal> {
  const file = path.join(dir, `journal-${size}.db`);
  const dataKey = createFieldKey();
  await seedQueueJournal({ file, dataKey, customers: size });
  const journal = openJournal({ file, dataKey });
  const claims: ReplicaClaim[] = [];
  for (let k = 0; k < CLAIMED; k++) {
    const i = Math.floor((k * size) / CLAIMED);
    claims.push({
      seq: claims.length + 1,
      customerId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      holder: HOLDERS[claims.length % HOLDERS.length]!,
      since: '2026-03-01T10:00:00.000Z',
      how: 'take',
      changedBy: 'ana',
      changedAt: '2026-03-01T10:00:00.000Z',
      note: null,
    });
  }
  await journal.replica.applyChanges({ claims });
  return journal;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Medians at each size, samples alternating (small, large, small…). */
async function both(small: SqliteJournal, large: SqliteJournal, run: (j: SqliteJournal) => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await Promise.all([run(small), run(large)]);
  const samples: [number[], number[]] = [[], []];
  for (let rep = 0; rep < REPS; rep++) {
    samples[0].push(await timed(() => run(small)));
    samples[1].push(await timed(() => run(large)));
  }
  return [median(samples[0]), median(samples[1])] as const;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-claims-'));
try {
  const small = await build(dir, SMALL);
  const large = await build(dir, LARGE);
  const rows: ResultRow[] = [];
  const screen = (scope: ClaimScope) => (j: SqliteJournal) => j.queue.window(first, DUE, scope);
  const sizes = (smallMs: number, largeMs: number) =>
    `${smallMs.toFixed(3)} ms at 1k, ${largeMs.toFixed(3)} ms at 100k`;
  const mine = await both(small, large, screen({ holder: 'ana' }));
  rows.push(growthRow('queue.window: Mine (first screen)', ...mine, 1.5));
  const unclaimed = await both(small, large, screen({ unclaimed: true }));
  rows.push(atMost('queue.window: Unclaimed (first screen)', unclaimed[1], 5, ' ms', sizes(...unclaimed)));
  const counts = await both(small, large, (j) => j.queue.holderCounts(DUE));
  rows.push(atMost('claims.counts (the work by holder)', counts[1], 10, ' ms', sizes(...counts)));
  await small.close();
  await large.close();
  printResult(rows);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
