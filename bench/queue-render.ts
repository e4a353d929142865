/**
 * The queue screen's cost in the renderer as the journal grows: time from asking for a list (a section
 * or a search) to its rows painted, read from the renderer's own `performance` measure, in Debian's
 * Chromium against browser mode, with 1,000 and with 100,000 customers in the journal. Prints the
 * medians, the ratio 100k/1k (goal ≤ 2: a screen must not cost more because the queue is longer) and
 * the renderer's JS heap (after a GC) at each size.
 *
 *   npx electron-vite build && npm run bench -- queue-render      (or: node bench/queue-render.ts --reps 30)
 *
 * The goal covers switching sections and a search that finds a few rows. A search matching a fixed
 * share of the queue, and a jump to a far scroll position, are printed for information with main's
 * own share (the `queue.window` round trip), since what grows there is main's query, not the renderer.
 * The journal holds only customers in final statuses (verified, suspended): the start-up reconcile
 * then has nothing to fetch, so no pushed update lands in the middle of a measurement.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Page } from '@playwright/test';
import type { VettedBridge } from '../contract/bridge.ts';
import type { QueueWindowInput } from '../contract/queue.ts';
import { runBrowserMode } from '../main/browser/main.ts';
import { openJournal } from '../main/journal/index.ts';
import { openFileKeyVault } from '../main/vault.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '30' } } });
const REPS = Number(values.reps);
const SIZES = [1_000, 100_000] as const;
const GOAL = 2;
/** Must match `ROWS_PAINTED_MEASURE` in renderer/src/features/queue/queue-store.ts. */
const MEASURE = 'queue.rows-painted';

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'Sarah'];
const LAST = ['Smith', 'Garcia', 'Nguyen', 'Okafor', 'Kowalski', 'Haddad', 'Larsen', 'Moreau', 'Tanaka'];
/** A surname planted in three customers of each journal: a search that finds a few rows, as most do. */
const RARE = 'Quennell';

async function seedJournal(dataDir: string, customers: number): Promise<void> {
  const dataKey = openFileKeyVault({ dir: dataDir }).dataKey();
  const journal = openJournal({ file: path.join(dataDir, 'journal.db'), dataKey });
  const now = Date.parse('2026-03-01T12:00:00.000Z');
  const rare = new Set([7, Math.floor(customers / 2), customers - 3]);
  await journal.transaction(async (tx) => {
    for (let i = 0; i < customers; i++) {
      const firstName = FIRST[i % FIRST.length]!;
      const lastName = rare.has(i) ? RARE : `${LAST[Math.floor(i / FIRST.length) % LAST.length]}${i}`;
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      // Spread over 90 days, in an order unrelated to the id, so the queue's order is a real sort.
      const since = new Date(now - ((i * 7_919) % 7_776_000) * 1000).toISOString();
      await tx.customers.upsert(
        {
          id,
          firstName,
          lastName,
          email: `${firstName}.${lastName}@example.com`.toLowerCase(),
          type: 'personal',
          status: i % 7 === 0 ? 'suspended' : 'verified',
          created: since,
          _links: { self: { href: `https://api.service.test/customers/${id}` } },
        },
        { source: 'poll', at: since },
      );
    }
  });
  await journal.close();
}

/** Runs `action` and answers the renderer's measure of the list it caused, in milliseconds. */
async function measured(page: Page, action: () => Promise<unknown>): Promise<number> {
  await page.evaluate((name) => performance.clearMeasures(name), MEASURE);
  await action();
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, MEASURE);
  return page.evaluate((name) => performance.getEntriesByName(name)[0]!.duration, MEASURE);
}

/** The little of the page's DOM that `scrollJump` uses (this file compiles without the DOM library). */
interface DomNode {
  offsetHeight: number;
  scrollHeight: number;
  clientHeight: number;
  scrollTop: number;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
}
type PageGlobals = typeof globalThis & {
  document: DomNode;
  requestAnimationFrame(callback: () => void): number;
  vetted: VettedBridge;
};

/** Jumps the list's scroll position to `fraction` of its height; ms until rows from there are painted. */
function scrollJump(page: Page, fraction: number): Promise<number> {
  return page.evaluate(async (at) => {
    const { document, requestAnimationFrame } = globalThis as PageGlobals;
    const list = document.querySelector('[role="listbox"]')!;
    const rowHeight = list.querySelector('[role="option"]')!.offsetHeight;
    const top = Math.floor(at * (list.scrollHeight - list.clientHeight));
    const wanted = Math.floor(top / rowHeight) + 1;
    const started = performance.now();
    list.scrollTop = top;
    await new Promise<void>((resolve) => {
      const check = () => {
        const shown = Array.from(list.querySelectorAll('[role="option"]')).some(
          (option) => Math.abs(Number(option.getAttribute('aria-posinset')) - wanted) <= 2,
        );
        if (shown) requestAnimationFrame(() => setTimeout(resolve, 0));
        else requestAnimationFrame(check);
      };
      check();
    });
    return performance.now() - started;
  }, fraction);
}

/** Main's share: the `queue.window` round trip alone, from the page, with nothing painted. */
function windowRoundTrip(page: Page, input: QueueWindowInput): Promise<number> {
  return page.evaluate(async (query) => {
    const started = performance.now();
    await (globalThis as PageGlobals).vetted.queue.window(query);
    return performance.now() - started;
  }, input);
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Figures {
  firstScreen: number;
  section: number;
  rareSearch: number;
  commonSearch: number;
  sectionRoundTrip: number;
  rareRoundTrip: number;
  commonRoundTrip: number;
  scroll: number;
  heapMiB: number;
  options: number;
}

async function measureSize(browser: Browser, size: number): Promise<Figures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vetted-bench-render-${size}-`));
  try {
    const seeding = performance.now();
    await seedJournal(dataDir, size);
    console.info(
      `journal of ${size.toLocaleString('en')} customers built in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const running = await runBrowserMode({ port: 0, dataDir });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      const firstScreen = await measured(page, () => page.goto(running.launchUrl));
      const sections = page.getByRole('navigation', { name: 'Sections' });
      const button = (title: string) => sections.getByRole('button', { name: new RegExp(`^${title}`) });
      const search = page.getByRole('searchbox', { name: 'Search customers' });
      // Warm-up: the first switches compile code paths that every later one reuses.
      for (const title of ['Verified', 'Suspended', 'All']) await measured(page, () => button(title).click());

      const section: number[] = [];
      const rareSearch: number[] = [];
      const commonSearch: number[] = [];
      const scroll: number[] = [];
      const trips = { section: [] as number[], rare: [] as number[], common: [] as number[] };
      const query = { section: 'verified', search: '', offset: 0, limit: 50 } as const;
      for (let rep = 0; rep < REPS; rep++) {
        const common = FIRST[rep % FIRST.length]!.toLowerCase();
        trips.section.push(await windowRoundTrip(page, query));
        trips.rare.push(
          await windowRoundTrip(page, { ...query, section: 'all', search: RARE.toLowerCase() }),
        );
        trips.common.push(await windowRoundTrip(page, { ...query, section: 'all', search: common }));
        for (const title of ['Verified', 'Suspended', 'All']) {
          section.push(await measured(page, () => button(title).click()));
        }
        rareSearch.push(await measured(page, () => search.fill(RARE.toLowerCase())));
        await measured(page, () => search.fill(''));
        commonSearch.push(await measured(page, () => search.fill(common)));
        await measured(page, () => search.fill(''));
        scroll.push(await scrollJump(page, ((rep * 37) % 100) / 100));
      }
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const options = await page.getByRole('option').count();
      return {
        firstScreen,
        section: median(section),
        rareSearch: median(rareSearch),
        commonSearch: median(commonSearch),
        sectionRoundTrip: median(trips.section),
        rareRoundTrip: median(trips.rare),
        commonRoundTrip: median(trips.common),
        scroll: median(scroll),
        heapMiB: usedSize / 1024 / 1024,
        options,
      };
    } finally {
      await page.close();
      await running.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const rendererIndex = path.resolve(import.meta.dirname, '..', 'out', 'renderer', 'index.html');
if (!fs.existsSync(rendererIndex)) {
  console.error('No built renderer in out/renderer: run `npx electron-vite build` first.');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const figures = new Map<number, Figures>();
  for (const size of SIZES) figures.set(size, await measureSize(browser, size));
  const small = figures.get(SIZES[0])!;
  const large = figures.get(SIZES[1])!;
  const row = (label: string, a: number, b: number, goal: boolean) => {
    const ratio = b / a;
    const verdict = goal ? (ratio <= GOAL ? `ok (goal ≤ ${GOAL})` : `ABOVE GOAL (≤ ${GOAL})`) : 'info';
    console.info(
      `${label.padEnd(48)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(10)} ${ratio.toFixed(2).padStart(8)}  ${verdict}`,
    );
    return !goal || ratio <= GOAL;
  };
  console.info(`\ncall → rows painted, median of ${REPS} (ms)${' '.repeat(16)}1k       100k  100k/1k`);
  const met = [
    row('switch section (Verified/Suspended/All)', small.section, large.section, true),
    row(
      '  of which queue.window round trip (Verified)',
      small.sectionRoundTrip,
      large.sectionRoundTrip,
      false,
    ),
    row(`search "${RARE.toLowerCase()}" (3 rows)`, small.rareSearch, large.rareSearch, true),
    row('  of which queue.window round trip', small.rareRoundTrip, large.rareRoundTrip, false),
    row('search a first name (1 row in 9)', small.commonSearch, large.commonSearch, false),
    row('  of which queue.window round trip', small.commonRoundTrip, large.commonRoundTrip, false),
    row('scroll jump to an unloaded place', small.scroll, large.scroll, false),
    row('first screen after load (one sample)', small.firstScreen, large.firstScreen, false),
  ].every(Boolean);
  console.info(
    `\nrenderer JS heap after GC: ${small.heapMiB.toFixed(1)} MiB at 1k, ${large.heapMiB.toFixed(1)} MiB at 100k`,
  );
  console.info(`options in the DOM: ${small.options} at 1k, ${large.options} at 100k`);
  console.info(met ? '\nall goals met' : '\nsome goals NOT met');
} finally {
  await browser.close();
}
