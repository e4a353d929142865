/**
 * Start-up, as a reviewer meets it. (1) `npm start -- --browser`, warm (built, caches filled by a first start
 * that is not counted), from the spawn until it prints the address; (2) a page opened at that address until
 * the queue's rows are painted: the renderer's own `queue.rows-painted` measure, read as its end on the page's
 * clock (from the navigation's start). Goals: ≤ 1 s and ≤ 0.5 s, medians of --runs.
 *
 * The data directory is seeded once with customers in final statuses (the queue has rows to paint, and the
 * start-up reconcile has nothing to fetch) and used by every run, as a reviewer's own is. Each run is a new
 * process, stopped (SIGTERM to its process group) before the next; Chromium is Debian's, one page per run.
 *
 *   node bench/start-up.ts [--runs 7] [--customers 500]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium } from '@playwright/test';
import { openJournal } from '#main/data/journal/index.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, customers: { type: 'string', default: '500' } },
});
const RUNS = Math.max(3, Number(values.runs));
const root = path.resolve(import.meta.dirname, '..');
/** Must match `ROWS_PAINTED_MEASURE` in renderer/src/features/queue/queue-store.ts. */
const MEASURE = 'queue.rows-painted';
const ADDRESS_GOAL_MS = 1000;
const PAINT_GOAL_MS = 500;

async function seed(dataDir: string, customers: number): Promise<void> {
  const journal = openJournal({
    file: path.join(dataDir, 'journal.db'),
    dataKey: openFileKeyVault({ dir: dataDir }).dataKey(),
  });
  await journal.transaction(async (tx) => {
    for (let i = 0; i < customers; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      await tx.customers.upsert(
        {
          id,
          firstName: 'Start',
          lastName: `Up${i}`,
          email: `start.up${i}@example.com`,
          type: 'personal',
          status: i % 5 === 0 ? 'suspended' : 'verified',
          created: new Date(Date.parse('2026-03-01T12:00:00Z') - i * 60_000).toISOString(),
          _links: { self: { href: `https://api.service.test/customers/${id}` } },
        },
        { source: 'poll' },
      );
    }
  });
  await journal.close();
}

/** `npm start -- --browser` until it prints its address: the child, the address, and the milliseconds. */
function start(dataDir: string): Promise<{ child: ChildProcess; url: string; ms: number }> {
  const started = performance.now();
  const child = spawn('npm', ['start', '--', '--browser', '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.resume();
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Open: (\S+)/.exec(output);
      if (found) resolve({ child, url: found[1]!, ms: performance.now() - started });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before printing the address`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** Opens the address in a new page; milliseconds from the navigation's start until the rows were painted. */
async function queuePainted(browser: Browser, url: string): Promise<number> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, MEASURE, {
      timeout: 30_000,
    });
    return await page.evaluate((name) => {
      const entry = performance.getEntriesByName(name)[0]!;
      return entry.startTime + entry.duration;
    }, MEASURE);
  } finally {
    await page.close();
  }
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-start-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    await seed(dataDir, Number(values.customers));
    const addressMs: number[] = [];
    const paintMs: number[] = [];
    // The first start builds if the sources changed, fills the compile cache and sets up the data directory.
    for (let run = 0; run <= RUNS; run++) {
      const { child, url, ms } = await start(dataDir);
      try {
        const painted = await queuePainted(browser, url);
        if (run === 0) continue;
        addressMs.push(ms);
        paintMs.push(painted);
        console.info(
          `run ${run}: address printed ${ms.toFixed(0)} ms, queue painted ${painted.toFixed(0)} ms`,
        );
      } finally {
        await stop(child);
      }
    }
    const address = median(addressMs);
    const paint = median(paintMs);
    const load = os.loadavg().map((n) => n.toFixed(2));
    console.info(
      `medians of ${RUNS}: address ${address.toFixed(0)} ms, queue painted ${paint.toFixed(0)} ms`,
    );
    console.info(`load average ${load.join(' ')}`);
    const row = (figure: string, goalMs: number, ms: number) => ({
      figure,
      goal: `≤ ${goalMs / 1000} s`,
      measured: `${(ms / 1000).toFixed(2)} s`,
      ratio: Number((ms / goalMs).toFixed(3)),
      verdict: ms <= goalMs ? 'pass' : 'miss',
    });
    const rows = [
      row('`npm start -- --browser` to address printed (warm)', ADDRESS_GOAL_MS, address),
      row('page open to queue painted', PAINT_GOAL_MS, paint),
    ];
    console.info(`RESULT ${JSON.stringify({ rows })}`);
  } finally {
    await browser.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
