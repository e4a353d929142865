/**
 * The queue's cost as the journal grows: `queue.window` timed in this process as main runs it, on journals
 * of 1,000 and 100,000 customers, for the first screen (in each order), a rare and a broad search (≈ 5 % of
 * customers match) and a jump to a far scroll position. Samples of the two sizes alternate; medians are
 * compared: 100k ÷ 1k ≤ 1.5 for each. Last line: `RESULT {...}` (see bench/support/result.ts).
 *
 *   node bench/queue.ts [--reps 200]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { QueueWindowInput } from '#contract/queue.ts';
import { type Journal, openJournal } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { BROAD_FIRST_NAME, RARE_SURNAME, seedQueueJournal } from './support/queue-journal.ts';
import { growthRow, median, printResult, type ResultRow } from './support/result.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '200' } } });
const REPS = Number(values.reps);
const SMALL = 1_000;
const LARGE = 100_000;
const GOAL = 1.5;
const MIN_REPS = 15;
const BUDGET_MS = 4_000;

/** Each case gives the input for one rep, from the journal's size (a jump lands at a share of the list). */
interface Case {
  figure: string;
  input(size: number, rep: number): QueueWindowInput;
}

const first = { section: 'all', search: '', offset: 0, limit: 50 } as const;
/** Far places in the Verified section (≈ 70 % of customers), the same shares at both sizes. */
const JUMPS = [0.37, 0.61, 0.83, 0.19, 0.52];
const CASES: Case[] = [
  { figure: 'queue first screen (waiting)', input: () => first },
  { figure: 'queue first screen (last change)', input: () => ({ ...first, sort: 'lastChange' }) },
  { figure: 'queue first screen (name)', input: () => ({ ...first, sort: 'name' }) },
  { figure: 'search, rare (3 rows)', input: () => ({ ...first, search: RARE_SURNAME.toLowerCase() }) },
  {
    figure: 'search, broad (≈ 5 % match)',
    input: () => ({ ...first, search: BROAD_FIRST_NAME.toLowerCase() }),
  },
  {
    figure: 'scroll jump (Verified)',
    input: (size, rep) => ({
      ...first,
      section: 'verified',
      offset: Math.floor(JUMPS[rep % JUMPS.length]! * size * 0.7),
    }),
  },
];

async function timeOnce(journal: Journal, input: QueueWindowInput): Promise<number> {
  const started = performance.now();
  await journal.queue.window(input);
  return performance.now() - started;
}

/** Medians at each size, samples alternating (small, large, small…) so a busy machine weighs on both. */
async function timeBoth(small: Journal, large: Journal, c: Case): Promise<[number, number]> {
  for (let i = 0; i < 10; i++) {
    await small.queue.window(c.input(SMALL, i));
    await large.queue.window(c.input(LARGE, i));
  }
  const samples: [number[], number[]] = [[], []];
  const deadline = performance.now() + BUDGET_MS;
  for (let rep = 0; rep < REPS && (rep < MIN_REPS || performance.now() < deadline); rep++) {
    samples[0].push(await timeOnce(small, c.input(SMALL, rep)));
    samples[1].push(await timeOnce(large, c.input(LARGE, rep)));
  }
  return [median(samples[0]), median(samples[1])];
}

/** Builds a journal of `size` customers, then opens it again as the app would after a restart. */
async function build(dir: string, size: number): Promise<Journal> {
  const file = path.join(dir, `journal-${size}.db`);
  const dataKey = createFieldKey();
  const started = performance.now();
  await seedQueueJournal({ file, dataKey, customers: size, drafts: 20 });
  console.info(
    `journal of ${size.toLocaleString('en')} customers built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const journal = openJournal({ file, dataKey });
  const matches = (await journal.queue.window(CASES[3]!.input(size, 0))).total;
  if (matches !== 3) throw new Error(`the rare surname matched ${matches} rows instead of 3`);
  return journal;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-queue-'));
try {
  const small = await build(dir, SMALL);
  const large = await build(dir, LARGE);
  const rows: ResultRow[] = [];
  for (const c of CASES) {
    const [smallMs, largeMs] = await timeBoth(small, large, c);
    rows.push(growthRow(`queue.window: ${c.figure}`, smallMs, largeMs, GOAL));
  }
  await small.close();
  await large.close();
  printResult(rows);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
