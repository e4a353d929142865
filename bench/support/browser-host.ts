/**
 * Browser mode in a process of its own, for the renderer benchmark: the page's requests are served on
 * another process's thread than the one driving the browser. Prints `{"launchUrl":…}` once listening;
 * closes on SIGTERM.
 *
 *   node bench/support/browser-host.ts <data dir>
 */
import { runBrowserMode } from '#main/hosts/browser/main.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: browser-host.ts <data dir>');
const running = await runBrowserMode({ port: 0, dataDir });
process.stdout.write(`${JSON.stringify({ launchUrl: running.launchUrl })}\n`);
process.once('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
