import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type ElectronApplication, _electron as electron, expect, type Page, test } from '@playwright/test';
import type { VettedBridge } from '#contract/bridge.ts';
import { electronRuntime } from './runtime.ts';

/** The page's globals as these tests read them (this file is type-checked without the DOM's types). */
type PageGlobals = typeof globalThis & {
  vetted: VettedBridge;
  location: { href: string };
  open(url: string): unknown;
};

/**
 * The built app under a real Electron (Playwright's _electron.launch on out/): what the mocked
 * glue tests cannot prove. The release workflow runs it on each OS runner before packaging (the
 * packaged app's fuses turn off the inspector Playwright needs). Without a runtime it is skipped,
 * with the reason, never passed.
 */

const runtime = electronRuntime();
const root = path.resolve(import.meta.dirname, '../..');

test.describe.configure({ mode: 'serial' });
test.skip(
  runtime.path === null,
  `No Electron runtime on this machine, so nothing to launch: ${runtime.missing}`,
);

let app: ElectronApplication;
let page: Page;
let userData: string;

test.beforeAll(async () => {
  if (!existsSync(path.join(root, 'out/main/hosts/electron/index.js')))
    throw new Error('Run `npm run build` first.');
  userData = mkdtempSync(path.join(os.tmpdir(), 'vetted-smoke-'));
  app = await electron.launch({
    executablePath: runtime.path ?? undefined,
    args: [root, `--user-data-dir=${userData}`],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  page = await app.firstWindow();
});

test.afterAll(async () => {
  await app?.close().catch(() => {});
  if (userData) rmSync(userData, { recursive: true, force: true });
});

test('the window opens on app://vetted/ with the CSP', async () => {
  await expect(page).toHaveURL('app://vetted/');
  const csp = await page.evaluate(async () =>
    (await fetch((globalThis as PageGlobals).location.href)).headers.get('content-security-policy'),
  );
  expect(csp).toContain("default-src 'self'");
  expect(csp).not.toMatch(/unsafe-(eval|inline)/);
});

test('window.vetted answers app.ping, and the page has no require or process', async () => {
  const answer = await page.evaluate(() => (globalThis as PageGlobals).vetted.app.ping({ nonce: 'smoke' }));
  expect(answer).toMatchObject({ ok: true, value: { nonce: 'smoke' } });
  const globals = await page.evaluate(() => [
    typeof (globalThis as Record<string, unknown>).require,
    typeof (globalThis as Record<string, unknown>).process,
  ]);
  expect(globals).toEqual(['undefined', 'undefined']);
});

test('navigation away and new windows are denied', async () => {
  const opened = await page.evaluate(() => (globalThis as PageGlobals).open('https://example.com/') === null);
  expect(opened).toBe(true);
  await page.evaluate(() => {
    (globalThis as PageGlobals).location.href = 'https://example.com/';
  });
  // A round trip through main after the attempt: the page answering is still ours.
  expect(
    await page.evaluate(() => (globalThis as PageGlobals).vetted.app.ping({ nonce: 'after' })),
  ).toMatchObject({ ok: true });
  await expect(page).toHaveURL('app://vetted/');
  expect(app.windows()).toHaveLength(1);
});

test('the journal opens: node:sqlite with FTS5 under Electron’s Node, and the queue answers', async () => {
  const fts = await app.evaluate(() => {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const db = new DatabaseSync(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(name); INSERT INTO t VALUES ('Ada Lovelace')");
    const row = db.prepare("SELECT count(*) AS n FROM t WHERE t MATCH 'lovelace'").get() as { n: number };
    db.close();
    return row.n;
  });
  expect(fts).toBe(1);
  const queue = await page.evaluate(() =>
    (globalThis as PageGlobals).vetted.queue.window({ section: 'all', search: '', offset: 0, limit: 10 }),
  );
  expect(queue).toMatchObject({ ok: true });
  expect(existsSync(path.join(userData, 'journal.db'))).toBe(true);
});

test('a writer worker runs node:sqlite under Electron’s Node', async () => {
  // node:sqlite in an eval'd worker thread under Electron's Node: moving journal writes off main (#15's next
  // step) depends on it.
  const written = await app.evaluate(
    async (_electron, file) => {
      const { Worker } = process.getBuiltinModule('node:worker_threads');
      const source = `
      const { DatabaseSync } = require('node:sqlite');
      const { parentPort, workerData } = require('node:worker_threads');
      const db = new DatabaseSync(workerData.file);
      db.exec('PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS w (n INTEGER); INSERT INTO w VALUES (1)');
      parentPort.postMessage(db.prepare('SELECT count(*) AS n FROM w').get().n);
      db.close();`;
      const worker = new Worker(source, { eval: true, workerData: { file } });
      return new Promise<number>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    },
    path.join(userData, 'worker-smoke.db'),
  );
  expect(written).toBe(1);
});

test('quitting closes the desk cleanly: the journal is whole and checkpointed', async () => {
  const exited = new Promise<void>((resolve) => app.process().once('exit', () => resolve()));
  await app.close();
  await exited;
  const wal = path.join(userData, 'journal.db-wal');
  expect(!existsSync(wal) || statSync(wal).size === 0, 'no WAL left behind').toBe(true);
  const db = new DatabaseSync(path.join(userData, 'journal.db'), { readOnly: true });
  expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
  db.close();
});
