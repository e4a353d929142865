import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { type SandboxClient, sandboxClient } from './queue-sandbox.ts';

/**
 * Vetted in browser mode on its built-in sandbox, which a test can stop and start again on the same data
 * directory (its journal, vault key and sandbox data), as a reviewer quitting and reopening it would.
 */
export interface CaseApp {
  launchUrl: string;
  sandbox: SandboxClient;
  /** Stops Vetted and starts it again on the same data; the new address is in `launchUrl`. */
  restart(): Promise<void>;
}

type Running = Awaited<ReturnType<typeof runBrowserMode>>;

async function start(dataDir: string): Promise<{ running: Running; sandbox: SandboxClient }> {
  const running = await runBrowserMode({ port: 0, dataDir, writeLog: () => {} });
  const access = running.desk.connection().sandbox;
  if (!access) throw new Error('The e2e tests need Vetted on its built-in sandbox.');
  return { running, sandbox: await sandboxClient(access) };
}

export const test = base.extend<{ app: CaseApp }>({
  app: async ({ page }, use) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-e2e-case-'));
    let current = await start(dataDir);
    const app: CaseApp = {
      launchUrl: current.running.launchUrl,
      sandbox: current.sandbox,
      async restart() {
        await current.running.close();
        current = await start(dataDir);
        app.launchUrl = current.running.launchUrl;
        app.sandbox = current.sandbox;
      },
    };
    await use(app);
    // The browser's side first: a socket it holds open would keep the host's server from closing.
    await page.context().close();
    await current.running.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
