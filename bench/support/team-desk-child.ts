/**
 * Desks of the team bench, in a process of their own: each a whole desk composed by `createDesk` as browser
 * mode composes it (no window), on its own data directory (vault, settings, local journal with its replica of
 * the team store), its own pool and LISTEN connections, joined as its own reviewer. Each desk notes when it
 * pushes `customer.updated` (what the window would show) and which version of the customer its replica held
 * then, and runs a reviewer's work (team-desk-work.ts).
 * Lines on stdin: `start` begins the work, `stop` ends it (the desks stay open and keep following the
 * store), `next {json}` has every desk take the next case at the given instants (team-next-case.ts), `close` writes every desk's record to `resultsFile`, closes the desks and exits. It answers each
 * with one JSON line, and prints one when its desks are open.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import type { ChannelInput, ChannelName, ChannelOutput } from '#contract/channels.ts';
import type { QueueRow } from '#contract/queue.ts';
import { createDesk } from '#main/compose/desk.ts';
import { openLogFile } from '#main/ground/log/log-file.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { startSandbox } from '#sandbox/index.ts';
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
  /**
   * Each `customer.updated` this desk pushed before the claims run: the customer, its replica's version of it
   * (`team_seq`; -1 if it could not be read) and Date.now(), as it was pushed.
   */
  updates: Array<[string, number, number]>;
}

const job = JSON.parse(process.argv[2] ?? '{}') as TeamDeskJob;
const { version } = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { version: string };

interface OpenDesk {
  name: string;
  call: <C extends ChannelName>(channel: C, input?: ChannelInput<C>) => Promise<ChannelOutput<C>>;
  updates: Array<[string, number, number]>;
  close(): Promise<void>;
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
  const updates: Array<[string, number, number]> = [];
  // The version is read from the journal file beside the desk, not through it, to add no await and one
  // indexed read per push. The desk pushes right after its replica committed the change (the rows are read
  // from the synchronous local journal, then main/compose/desk.ts emits): no other catch-up can commit in
  // between (each waits for the store), so the committed row read here is the version pushed.
  const journal = new DatabaseSync(path.join(dataDir, 'journal.db'), { readOnly: true });
  const versionOf = journal.prepare('SELECT team_seq FROM customers WHERE id = ?');
  const teamSeq = (id: string): number => {
    try {
      const row = versionOf.get(id) as { team_seq: number | null } | undefined;
      return row?.team_seq ?? -1;
    } catch {
      return -1;
    }
  };
  desk.events.subscribe((event, payload) => {
    if (event !== 'customer.updated') return;
    const { id } = payload as QueueRow;
    updates.push([id, teamSeq(id), Date.now()]);
  });
  const dispatch = desk.dispatcher(() => true);
  return {
    name,
    updates,
    async close() {
      await desk.close();
      journal.close();
      logFile.close();
    },
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
    for (const open of desks) await open.close();
    process.stdout.write(`${JSON.stringify({ closed: desks.length })}\n`);
    break;
  }
}
process.exit(0);
