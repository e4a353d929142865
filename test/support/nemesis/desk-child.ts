// One desk of a nemesis run as a process of its own (so it can be stopped with SIGSTOP, as a laptop sleeps):
// the desk composed as browser mode composes it, without a window, once told "open <job>", running the
// workload (workload.ts) on "start [case ids]" until "stop", then closed on "close". It is started before its
// data directory is joined: its modules load (most of a desk's boot) while the store and the team are made.
// Every operation's invocation and end go to stdout as JSON lines the moment they happen, so the run's
// history survives whatever happens to this process.
import { readFileSync } from 'node:fs';
import { flushCompileCache } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { seeded } from '#bench/support/team-desk-work.ts';
import { createDesk } from '#main/compose/desk.ts';
import { openLogFile } from '#main/ground/log/log-file.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { startSandbox } from '#sandbox/index.ts';
import { type Call, CallRefused, runWorkload } from './workload.ts';

export interface DeskJob {
  desk: string;
  dataDir: string;
  lead: boolean;
  seed: number;
  everyMs: number;
  /** 1 for the desk's first process, 2 after a crash…: operation ids stay unique. */
  incarnation: number;
  /** Turns four eyes on for exports with names first (a lead's team setting). */
  fourEyes: boolean;
}

const say = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const first = (await lines.next()).value as string | undefined;
// Closed before it was opened (the run's setup failed): nothing to close.
if (!first?.startsWith('open ')) {
  say({ closed: true });
  process.exit(0);
}
const job = JSON.parse(first.slice('open '.length)) as DeskJob;
const { version } = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8'),
) as { version: string };

const logFile = openLogFile(job.dataDir);
const desk = await createDesk({
  host: 'browser',
  version,
  dataDir: job.dataDir,
  log: createLogger((line) => logFile.write(line)),
  vault: openFileKeyVault({ dir: job.dataDir }),
  startSandbox,
});
const dispatch = desk.dispatcher(() => true);
const call: Call = async (channel, input) => {
  const result = await dispatch(channel, 'nemesis', input);
  if (!result.ok) throw new CallRefused(result.error.code, result.error.message);
  return result.value as never;
};
if (job.fourEyes) {
  await call('team.updateSettings', { fourEyes: { retry: false, exportNames: true, expiryHours: 24 } });
}
say({ ready: process.pid });
// Its modules compiled for the next desk process started (after a crash, or in the next run): most of a boot.
flushCompileCache();

let stopped = false;
let working: Promise<void> | undefined;
for await (const line of { [Symbol.asyncIterator]: () => lines }) {
  if (line.startsWith('start ')) {
    working = runWorkload({
      call,
      desk: job.desk,
      incarnation: job.incarnation,
      lead: job.lead,
      customers: JSON.parse(line.slice('start '.length)) as string[],
      everyMs: job.everyMs,
      random: seeded(job.seed * 7 + job.incarnation),
      stopped: () => stopped,
      invoked: (op) => say({ invoked: op }),
      ended: (op) => say({ ended: op }),
    });
    say({ started: true });
  } else if (line === 'stop') {
    stopped = true;
    await working;
    say({ stopped: true });
  } else if (line === 'close') {
    await desk.close();
    logFile.close();
    say({ closed: true });
    break;
  }
}
process.exit(0);
