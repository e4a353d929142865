/**
 * Desks of the team bench, in a process of their own: each a whole desk composed by `createDesk` as browser
 * mode composes it (no window), on its own data directory (vault, settings, local journal with its replica of
 * the team store), its own pool and LISTEN connections, joined as its own reviewer. Each desk notes when it
 * pushes `customer.updated` (what the window would show) and runs a reviewer's work (team-desk-work.ts).
 * Lines on stdin: `start` begins the work, `stop` ends it (the desks stay open and keep following the
 * store), `next {json}` has every desk take the next case at the given instants (team-next-case.ts), `close` writes every desk's record to `resultsFile`, closes the desks and exits. It answers each
 * with one JSON line, and prints one when its desks are open.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../contract/channels.ts';
import type { QueueRow } from '../../contract/queue.ts';
import { createDesk, type Desk } from '../../main/compose/desk.ts';
import { openLogFile } from '../../main/log/log-file.ts';
import { createLogger } from '../../main/log/logger.ts';
import { openFileKeyVault } from '../../main/vault/vault.ts';
import { startSandbox } from '../../sandbox/index.ts';
import { type DeskWorkRecord, deskWork, seeded } from './team-desk-work.ts';
import { type NextCaseRounds, takeNextCases } from './team-next-case.ts';

export interface TeamDeskJob {
  desks: Array<{ name: string; dataDir: string; drafting: boolean }>;
  everyMs: number;
  draftEveryMs: number;
  resultsFile: string;
}

export interface TeamDeskResult extends DeskWorkRecord {
  name: string;
  /** Each `customer.updated` this desk pushed before the claims run: the customer, and Date.now() as it was pushed. */
  updates: Array<[string, number]>;
}

const job = JSON.parse(process.argv[2] ?? '{}') as TeamDeskJob;
const { version } = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { version: string };

interface OpenDesk {
  name: string;
  desk: Desk;
  call: <C extends ChannelName>(channel: C, input?: ChannelInput<C>) => Promise<ChannelOutput<C>>;
  updates: Array<[string, number]>;
  closeLog(): void;
}

async function openDesk(name: string, dataDir: string): Promise<OpenDesk> {
  const logFile = openLogFile(dataDir);
  const desk = await createDesk({
    host: 'browser',
    version,
    dataDir,
    log: createLogger((line) => logFile.write(line)),
    vault: openFileKeyVault({ dir: dataDir }),
    startSandbox,
  });
  const updates: Array<[string, number]> = [];
  desk.events.subscribe((event, payload) => {
    if (event === 'customer.updated') updates.push([(payload as QueueRow).id, Date.now()]);
  });
  const dispatch = desk.dispatcher(() => true);
  return {
    name,
    desk,
    updates,
    closeLog: () => logFile.close(),
    async call(channel, input) {
      const result = await dispatch(channel, 'bench', input);
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
      return result.value as ChannelOutput<typeof channel>;
    },
  };
}

const desks: OpenDesk[] = [];
for (const { name, dataDir } of job.desks) desks.push(await openDesk(name, dataDir));
process.stdout.write(`${JSON.stringify({ ready: desks.length, pid: process.pid })}\n`);

let stopped = false;
let records: DeskWorkRecord[] = [];
let pushedBeforeClaims: number[] | undefined;
let working: Promise<DeskWorkRecord[]> | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'start') {
    working = Promise.all(
      desks.map((open, i) =>
        deskWork({
          call: open.call,
          everyMs: job.everyMs,
          ...(job.desks[i]?.drafting ? { draftEveryMs: job.draftEveryMs } : {}),
          name: open.name,
          random: seeded(open.name.split('').reduce((sum, c) => sum * 31 + c.charCodeAt(0), 7)),
          stopped: () => stopped,
        }),
      ),
    );
    process.stdout.write(`${JSON.stringify({ started: desks.length })}\n`);
  } else if (line === 'stop') {
    stopped = true;
    records = (await working) ?? [];
    process.stdout.write(`${JSON.stringify({ stopped: desks.length })}\n`);
  } else if (line.startsWith('next ')) {
    // Taking a case pushes customer.updated too (its replica row follows the claim): the changes accounted
    // for are the deliveries', those pushed before the first take.
    pushedBeforeClaims ??= desks.map((open) => open.updates.length);
    const rounds = JSON.parse(line.slice('next '.length)) as NextCaseRounds;
    const takes = await Promise.all(desks.map((open) => takeNextCases(open.call, rounds)));
    process.stdout.write(`${JSON.stringify({ next: takes })}\n`);
  } else if (line === 'close') {
    const results: TeamDeskResult[] = desks.map((open, i) => ({
      name: open.name,
      updates: open.updates.slice(0, pushedBeforeClaims?.[i] ?? open.updates.length),
      ...(records[i] ?? { windowMs: [], windowErrors: [], drafts: [], draftErrors: [] }),
    }));
    writeFileSync(job.resultsFile, JSON.stringify(results));
    for (const open of desks) {
      await open.desk.close();
      open.closeLog();
    }
    process.stdout.write(`${JSON.stringify({ closed: desks.length })}\n`);
    break;
  }
}
process.exit(0);
