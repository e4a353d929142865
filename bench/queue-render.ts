/**
 * The queue screen's cost in the renderer as the journal grows, in Debian's Chromium against browser
 * mode (each size served by its own process), with 1,000 and with 100,000 customers: from asking for a
 * list (first screen, a section, a rare and a broad search, a jump to a far scroll position) to its rows
 * painted, read from the renderer's own `performance` measure, and from picking a row to its case open
 * in the case panel. Samples of the two sizes alternate; medians are compared: 100k ÷ 1k ≤ 1.5 each.
 * Last line: `RESULT {...}` (see bench/support/result.ts).
 *
 *   npx electron-vite build && node bench/queue-render.ts [--reps 15]
 *
 * The journal holds only customers in final statuses (verified, suspended): the start-up reconcile
 * then has nothing to fetch, so no pushed update lands in the middle of a measurement.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Page } from '@playwright/test';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { BROAD_FIRST_NAME, RARE_SURNAME, seedQueueJournal } from './support/queue-journal.ts';
import { caseOpened, type RendererPage, rowsPainted, scrollJump } from './support/renderer-timing.ts';
import { growthRow, median, printResult, type ResultRow } from './support/result.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '15' } } });
const REPS = Number(values.reps);
const SIZES = [1_000, 100_000] as const;
const GOAL = 1.5;

interface Served extends RendererPage {
  host: ChildProcess;
  dataDir: string;
}

async function serve(browser: Browser, size: number): Promise<Served> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vetted-bench-render-${size}-`));
  const started = performance.now();
  const dataKey = openFileKeyVault({ dir: dataDir }).dataKey();
  await seedQueueJournal({
    file: path.join(dataDir, 'journal.db'),
    dataKey,
    customers: size,
    finalOnly: true,
  });
  console.info(
    `journal of ${size.toLocaleString('en')} customers built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const host = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'support', 'browser-host.ts'), dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    host.once('exit', (code) => reject(new Error(`browser mode exited (${code})`)));
    readline.createInterface({ input: host.stdout! }).once('line', resolve);
  });
  const { launchUrl } = JSON.parse(line) as { launchUrl: string };
  const page: Page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await rowsPainted(page, () => page.goto(launchUrl));
  return { host, dataDir, page, launchUrl };
}

const rendererIndex = path.resolve(import.meta.dirname, '..', 'out', 'renderer', 'index.html');
if (!fs.existsSync(rendererIndex)) {
  console.error('No built renderer in out/renderer: run `npx electron-vite build` first.');
  process.exit(2);
}

type Figure = [label: string, measure: (served: RendererPage, rep: number) => Promise<number>];
const button = (served: RendererPage, title: string) =>
  served.page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: new RegExp(`^${title}`) });
const search = (served: RendererPage) => served.page.getByRole('searchbox', { name: 'Search customers' });
const searched = async (served: RendererPage, term: string) => {
  const ms = await rowsPainted(served.page, () => search(served).fill(term));
  await rowsPainted(served.page, () => search(served).fill(''));
  return ms;
};
const FIGURES: Figure[] = [
  ['queue first screen (page load → rows painted)', (s) => rowsPainted(s.page, () => s.page.reload())],
  [
    'switch section (Verified, Suspended, All)',
    async (s) => {
      const each = [];
      for (const title of ['Verified', 'Suspended', 'All'])
        each.push(await rowsPainted(s.page, () => button(s, title).click()));
      return median(each);
    },
  ],
  [`search, rare ("${RARE_SURNAME.toLowerCase()}", 3 rows)`, (s) => searched(s, RARE_SURNAME.toLowerCase())],
  [
    `search, broad ("${BROAD_FIRST_NAME.toLowerCase()}", ≈ 5 %)`,
    (s) => searched(s, BROAD_FIRST_NAME.toLowerCase()),
  ],
  [
    'scroll jump to an unloaded place',
    (s, rep) => scrollJump(s.page, [0.37, 0.61, 0.83, 0.19, 0.52][rep % 5]!),
  ],
  ['case panel opened (row picked → case shown)', (s, rep) => caseOpened(s.page, rep)],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const served: Served[] = [];
try {
  for (const size of SIZES) served.push(await serve(browser, size));
  const [small, large] = served as [Served, Served];
  // Warm-up: the first of each compiles code paths every later one reuses.
  for (const s of served) for (const [, measure] of FIGURES) await measure(s, 0);
  const samples = FIGURES.map(() => [[] as number[], [] as number[]] as const);
  for (let rep = 0; rep < REPS; rep++) {
    for (const [i, [, measure]] of FIGURES.entries()) {
      samples[i]![0].push(await measure(small, rep));
      samples[i]![1].push(await measure(large, rep));
    }
  }
  const rows: ResultRow[] = FIGURES.map(([label], i) =>
    growthRow(`renderer: ${label}`, median(samples[i]![0]), median(samples[i]![1]), GOAL),
  );
  printResult(rows);
} finally {
  await browser.close();
  for (const s of served) {
    s.host.kill('SIGTERM');
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
}
