/**
 * The desk in a child process, for the crash test (crash.test.ts), which kills it with SIGKILL.
 *
 *   node test/main/features/drafts/crash-child.ts <data dir> seed <count>   configure the service, write <count> drafts, exit
 *   node test/main/features/drafts/crash-child.ts <data dir> drain          submit what is still a draft, wait until all are sent
 *   node test/main/features/drafts/crash-child.ts <data dir> drain --gated  the same, but the whole process stops after each
 *                                                            `state` line until the test writes a byte on stdin
 *
 * The service (a sandbox owned by the test) is given in VETTED_TEST_SERVICE as {baseUrl, clientId, clientSecret}.
 * Lines on stdout: `ready`, one `state <state>` per draft change, `done`.
 */
import { readSync } from 'node:fs';
import { createDesk } from '#main/compose/desk.ts';
import { openSettings } from '#main/ground/config/settings-store.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { samplePerson } from '#test/support/person.ts';

const [dataDir, mode, count] = process.argv.slice(2);
if (!dataDir || (mode !== 'seed' && mode !== 'drain'))
  throw new Error('usage: crash-child.ts <dir> seed|drain [count]');
const say = (line: string) => process.stdout.write(`${line}\n`);
const gated = process.argv.includes('--gated');

/**
 * Holds the whole process (event loop included) until the test answers on stdin: the test then
 * either lets it go on or kills it right here, so a kill lands exactly where the test chose, however
 * loaded the machine, and a drain can never finish by itself before the kill.
 */
function waitForTest(): void {
  const byte = Buffer.alloc(1);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      if (readSync(0, byte, 0, 1, null) === 1) return;
      throw new Error('The test closed stdin.');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 5);
    }
  }
}

const vault = openFileKeyVault({ dir: dataDir });
if (mode === 'seed') {
  const service = JSON.parse(process.env.VETTED_TEST_SERVICE ?? '{}');
  openSettings({ dir: dataDir }).update({
    serviceMode: 'custom',
    baseUrl: service.baseUrl,
    clientId: service.clientId,
  });
  vault.set('clientSecret', service.clientSecret);
}

const desk = await createDesk({
  host: 'browser',
  version: '0.0.0-crash',
  dataDir,
  log: createLogger(() => {}),
  vault,
  startSandbox: () => Promise.reject(new Error('This test brings its own service.')),
});
const dispatch = desk.dispatcher(() => true);
const call = async (channel: string, input?: unknown) => {
  const result = await dispatch(channel, 'child', input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as never;
};

if (mode === 'seed') {
  for (let i = 0; i < Number(count); i++) {
    const { id } = await call('drafts.create');
    await call('drafts.save', {
      id,
      form: samplePerson(`Crash${i}`, 'Test', `crash-${i}@example.com`),
    });
  }
  await desk.close();
  say('done');
} else {
  desk.events.subscribe((event, payload) => {
    if (event !== 'draft.updated') return;
    say(`state ${(payload as { state: string }).state}`);
    if (gated) waitForTest();
  });
  const { drafts } = (await call('drafts.list')) as { drafts: { id: string; state: string }[] };
  const fresh = drafts.filter((draft) => draft.state === 'draft');
  if (fresh.length > 0) await call('drafts.submit', { ids: fresh.map((draft) => draft.id) });
  say('ready');
  for (;;) {
    const status = (await call('outbox.status')) as { draining: boolean; counts: Record<string, number> };
    if (!status.draining && status.counts.created === drafts.length) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await desk.close();
  say('done');
}
