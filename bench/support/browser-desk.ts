import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChannelInput, ChannelName, ChannelOutput } from '#contract/channels.ts';
import type { Desk } from '#main/compose/desk.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { runBrowserMode } from '#main/hosts/browser/main.ts';

/**
 * A whole desk in browser mode for the benches, as `npm start -- --browser` runs it (embedded sandbox,
 * browser host), its log written to a file as the terminal log would be, in a fresh data directory.
 */
export interface BenchDesk {
  desk: Desk;
  launchUrl: string;
  /** The event stream the open page reads, with this launch's key. */
  eventsUrl: string;
  call<C extends ChannelName>(channel: C, input?: ChannelInput<C>): Promise<ChannelOutput<C>>;
  /** The subscription delivering to the listener (made at start), with its secret. */
  listenerSubscription(): Promise<{ id: string; listenerUrl: string; secret: string }>;
  close(): Promise<void>;
}

export async function startBenchDesk(): Promise<BenchDesk> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-desk-'));
  const dataDir = path.join(dir, 'data');
  const logFile = createWriteStream(path.join(dir, 'vetted.log'));
  const running = await runBrowserMode({
    dataDir,
    rendererDir: dir,
    writeLog: (line) => logFile.write(`${line}\n`),
  });
  const dispatch = running.desk.dispatcher(() => true);
  const call = async <C extends ChannelName>(channel: C, input?: ChannelInput<C>) => {
    const result = await dispatch(channel, 'bench', input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value as ChannelOutput<C>;
  };
  const launch = new URL(running.launchUrl);
  const token = launch.hash.replace('#token=', '');
  return {
    desk: running.desk,
    launchUrl: running.launchUrl,
    eventsUrl: `${launch.origin}/api/events?token=${encodeURIComponent(token)}`,
    call,
    async listenerSubscription() {
      for (let tries = 0; tries < 400; tries++) {
        const overview = await call('webhooks.list');
        const ours = overview.subscriptions?.find((s) => s.ours && s.target === 'listener');
        const secret = ours && openFileKeyVault({ dir: dataDir }).get(`webhookSecret:${ours.id}`);
        if (ours && secret && overview.listener.url) {
          return { id: ours.id, listenerUrl: overview.listener.url, secret };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('The desk never subscribed its listener.');
    },
    async close() {
      await running.close();
      await new Promise((resolve) => logFile.end(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
