import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import type { VettedBridge } from '#contract/bridge.ts';
import { runBrowserMode } from '#main/hosts/browser/main.ts';

/** What the page's global object offers, for code run inside page.evaluate. */
export type PageGlobals = typeof globalThis & { vetted?: VettedBridge };

export interface VettedApp {
  launchUrl: string;
  origin: string;
  dataDir: string;
  /** Every line main logged during the test. */
  logLines: string[];
}

/** Each test gets its own Vetted in browser mode, with its own data directory. */
export const test = base.extend<{ vetted: VettedApp }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern.
  vetted: async ({}, use) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-e2e-'));
    const logLines: string[] = [];
    const running = await runBrowserMode({ port: 0, dataDir, writeLog: (line) => logLines.push(line) });
    await use({ launchUrl: running.launchUrl, origin: new URL(running.launchUrl).origin, dataDir, logLines });
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
