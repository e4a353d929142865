/**
 * The queue's cost as the journal grows: `queue.window` for the first screen and for a search, timed in
 * this process as main runs it, on journals of 1,000 and 100,000 customers. Prints the median of each and
 * the ratio 100k/1k (goal ≤ 2: the cost of a screen must barely grow with the queue).
 *
 *   node bench/queue.ts [--reps 400]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { QueueWindowInput } from '../contract/queue.ts';
import { createFieldKey } from '../main/crypto.ts';
import { type Journal, openJournal } from '../main/journal/index.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '400' } } });
const REPS = Number(values.reps);
const SMALL = 1_000;
const LARGE = 100_000;
const DRAFTS = 20;
const GOAL = 2;
const MIN_REPS = 30;
const BUDGET_MS = 3_000;

/** A surname planted in three customers of each journal: a search that matches a few rows, as a real one. */
const RARE_SURNAME = 'Quennell';
const FIRST_NAMES = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David'];
const MORE_FIRST = [
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
];
const SYLLABLES = [
  'al',
  'ber',
  'cor',
  'dan',
  'el',
  'fin',
  'gar',
  'har',
  'is',
  'jor',
  'kel',
  'lin',
  'mor',
  'nor',
];
const ENDINGS = ['son', 'ton', 'ley', 'wood', 'field', 'man', 'ford', 'ski', 'ez', 'berg', 'stein', 'well'];

// Weighted like a real queue: mostly verified, a tail of work and of statuses the app does not know.
const STATUSES = [
  ...Array<string>(70).fill('verified'),
  ...Array<string>(10).fill('document'),
  ...Array<string>(8).fill('retry'),
  ...Array<string>(5).fill('suspended'),
  ...['unverified', 'unverified', 'kba', 'kba', 'deactivated', 'deactivated', 'unverified'],
];

/** Deterministic, so both runs and both sizes see the same kind of data. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function surname(random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const name = pick(SYLLABLES) + pick(SYLLABLES) + pick(ENDINGS);
  return name[0]!.toUpperCase() + name.slice(1);
}

async function buildJournal(file: string, dataKey: Buffer, customers: number): Promise<void> {
  const journal = openJournal({ file, dataKey });
  const random = seededRandom(customers);
  const now = Date.parse('2026-03-01T12:00:00.000Z');
  const rare = new Set([7, Math.floor(customers / 2), customers - 3]);
  await journal.transaction(async (tx) => {
    for (let i = 0; i < customers; i++) {
      const firstName = [...FIRST_NAMES, ...MORE_FIRST][Math.floor(random() * 18)]!;
      const lastName = rare.has(i) ? RARE_SURNAME : surname(random);
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const since = new Date(now - Math.floor(random() * 90 * 86_400_000)).toISOString();
      await tx.customers.upsert(
        {
          id,
          firstName,
          lastName,
          email: `${firstName}.${lastName}.${i}@example.com`.toLowerCase(),
          type: 'personal',
          status: STATUSES[Math.floor(random() * STATUSES.length)]!,
          created: since,
          _links: { self: { href: `https://api.service.test/customers/${id}` } },
        },
        { source: 'poll', at: since },
      );
    }
    for (let i = 0; i < DRAFTS; i++) {
      await tx.drafts.insert({
        form: { firstName: 'Draft', lastName: surname(random), email: `d${i}@example.com` },
      });
    }
  });
  await journal.close();
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeOnce(journal: Journal, input: QueueWindowInput): Promise<number> {
  const started = performance.now();
  await journal.queue.window(input);
  return performance.now() - started;
}

/**
 * Median time of `queue.window(input)` on each journal, in ms. The two sizes are measured alternately, so
 * that whatever else the machine is doing weighs on both alike; slow cases stop after a time budget.
 */
async function timeBoth(small: Journal, large: Journal, input: QueueWindowInput): Promise<[number, number]> {
  for (let i = 0; i < 20; i++) {
    await small.queue.window(input);
    await large.queue.window(input);
  }
  const samples: [number[], number[]] = [[], []];
  const deadline = performance.now() + BUDGET_MS;
  while (samples[0].length < REPS && (samples[0].length < MIN_REPS || performance.now() < deadline)) {
    samples[0].push(await timeOnce(small, input));
    samples[1].push(await timeOnce(large, input));
  }
  return [median(samples[0]), median(samples[1])];
}

const CASES: { label: string; input: QueueWindowInput; goal: boolean }[] = [
  {
    label: 'first screen, all sections',
    input: { section: 'all', search: '', offset: 0, limit: 50 },
    goal: true,
  },
  {
    label: 'first screen, Verified (biggest)',
    input: { section: 'verified', search: '', offset: 0, limit: 50 },
    goal: true,
  },
  {
    label: `search "${RARE_SURNAME.toLowerCase()}" (3 rows)`,
    input: { section: 'all', search: RARE_SURNAME.toLowerCase(), offset: 0, limit: 50 },
    goal: true,
  },
  // For information: a search that matches a fixed share of the queue must count every match.
  {
    label: 'search "sarah" (~5% of rows), info',
    input: { section: 'all', search: 'sarah', offset: 0, limit: 50 },
    goal: false,
  },
];

/** Builds a journal of `size` customers, then opens it again as the app would after a restart. */
async function build(dir: string, size: number): Promise<Journal> {
  const file = path.join(dir, `journal-${size}.db`);
  const dataKey = createFieldKey();
  const started = performance.now();
  await buildJournal(file, dataKey, size);
  const seconds = (performance.now() - started) / 1000;
  console.info(`journal of ${size.toLocaleString('en')} customers built in ${seconds.toFixed(1)} s`);
  const journal = openJournal({ file, dataKey });
  const matches = (await journal.queue.window(CASES[2]!.input)).total;
  if (matches !== 3) throw new Error(`the rare surname matched ${matches} rows instead of 3`);
  return journal;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-queue-'));
try {
  const small = await build(dir, SMALL);
  const large = await build(dir, LARGE);
  console.info(`\nqueue.window, median (ms)            1k       100k   100k/1k`);
  let allMet = true;
  for (const c of CASES) {
    const [smallMs, largeMs] = await timeBoth(small, large, c.input);
    const ratio = largeMs / smallMs;
    if (c.goal && ratio > GOAL) allMet = false;
    const verdict = !c.goal ? '' : ratio <= GOAL ? `ok (goal ≤ ${GOAL})` : `ABOVE GOAL (≤ ${GOAL})`;
    const figures = [
      smallMs.toFixed(3).padStart(8),
      largeMs.toFixed(3).padStart(10),
      ratio.toFixed(2).padStart(9),
    ];
    console.info(`${c.label.padEnd(34)} ${figures.join(' ')}  ${verdict}`);
  }
  await small.close();
  await large.close();
  console.info(allMet ? '\nall goals met' : '\nsome goals NOT met');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
