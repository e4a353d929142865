import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { createDesk, type DeskOptions } from '#main/compose/desk.ts';
import { type Journal, openJournal } from '#main/data/journal/index.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { startBrowserHost } from '#main/hosts/browser/host.ts';
import { startSandbox } from '#sandbox/index.ts';
import { type SandboxClient, sandboxClient } from './queue-sandbox.ts';

/**
 * Vetted in browser mode on its built-in sandbox, with the sandbox in the test's hands: the queue's
 * tests create customers on it and move its clock, as the service would on its own.
 *
 * It builds browser mode as `runBrowserMode` does because that function does not hand out the
 * desk, and the sandbox's address and credentials are reachable only through `desk.connection()`.
 */
export interface QueueApp {
  launchUrl: string;
  sandbox: SandboxClient;
  /**
   * Writes to the desk's journal behind its back, for states the tests cannot reach through the
   * service: the personal data Vetted keeps for customers it created itself (the drafts flow, a later
   * issue) and a customer the service has forgotten (the sandbox deletes none).
   */
  withJournal(change: (journal: Journal) => Promise<unknown>): Promise<void>;
  /** Moves main's clock (the one ageing targets are measured by) ahead by `ms`. */
  advanceDeskClock(ms: number): void;
}

const projectRoot = path.resolve(import.meta.dirname, '..', '..', '..');

/** The built-in service: the sandbox, or a stand-in in front of it (`test.use`; a function would be a fixture). */
export interface BuiltInService {
  start: DeskOptions['startSandbox'];
}

export const test = base.extend<{ app: QueueApp; builtInService: BuiltInService }>({
  builtInService: [{ start: startSandbox }, { option: true }],
  app: async ({ page, builtInService }, use) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-e2e-queue-'));
    const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    let deskAhead = 0;
    const desk = await createDesk({
      clock: () => new Date(Date.now() + deskAhead),
      host: 'browser',
      version,
      dataDir,
      log: createLogger(() => {}),
      vault: openFileKeyVault({ dir: dataDir }),
      startSandbox: builtInService.start,
      strictContract: true,
    });
    const host = await startBrowserHost({
      dispatch: desk.dispatcher((session) => session.authenticated),
      events: desk.events,
      rendererDir: path.join(projectRoot, 'out', 'renderer'),
      port: 0,
    });
    const running = desk.connection().sandbox;
    if (!running) throw new Error('The e2e tests need Vetted on its built-in sandbox.');
    const withJournal = async (change: (journal: Journal) => Promise<unknown>) => {
      // A second connection to the desk's journal, with the same vault key, as SQLite allows.
      const journal = openJournal({
        file: path.join(dataDir, 'journal.db'),
        dataKey: openFileKeyVault({ dir: dataDir }).dataKey(),
      });
      try {
        await change(journal);
      } finally {
        await journal.close();
      }
    };
    await use({
      launchUrl: host.launchUrl,
      sandbox: await sandboxClient(running),
      withJournal,
      advanceDeskClock: (ms) => {
        deskAhead += ms;
      },
    });
    // The browser's side first: a socket it holds open (its event stream reconnecting, a preconnect)
    // would otherwise keep the host's server from closing until Node's header timeout.
    await page.context().close();
    await host.close();
    await desk.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
