/**
 * The team bench's desks as processes (team-desk-child.ts): `perProcess` desks in each, started together,
 * told to start and stop their work, their records read back. Standard error passes through.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { TeamDeskJob, TeamDeskResult } from './team-desk-child.ts';
import type { NextCaseRounds, NextCaseTake } from './team-next-case.ts';

export interface FleetDesk {
  name: string;
  dataDir: string;
  drafting: boolean;
}

export interface DeskFleet {
  /** The desk processes' ids (their CPU is read from /proc). */
  readonly pids: readonly number[];
  start(): Promise<void>;
  /** Ends the work; the desks stay open, following the store. */
  stop(): Promise<void>;
  /** Every desk takes the next case at each round's instant; each desk's takes, in the desks' order. */
  nextCases(rounds: NextCaseRounds): Promise<NextCaseTake[][]>;
  /** Closes the desks; resolves with every desk's record. */
  close(): Promise<TeamDeskResult[]>;
  /** Kills whatever still runs (after a failure). */
  kill(): void;
}

const CHILD = path.join(import.meta.dirname, 'team-desk-child.ts');

interface DeskProcess {
  child: ChildProcessByStdio<Writable, Readable, null>;
  next(): Promise<Record<string, unknown>>;
  resultsFile: string;
}

function startProcess(job: TeamDeskJob, nice: number): DeskProcess {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'inherit'] });
  // Each reviewer's desk runs on a computer of their own; here fifty share two cores with the store and the
  // hubs. A nice value lets the store and the hubs have the cores first, as they would on their own machines.
  if (nice !== 0 && child.pid !== undefined) os.setPriority(child.pid, nice);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    resultsFile: job.resultsFile,
    async next() {
      const line = await lines.next();
      if (line.done) throw new Error(`desk process ${child.pid} ended early (exit ${child.exitCode})`);
      return JSON.parse(line.value) as Record<string, unknown>;
    },
  };
}

export async function startDeskFleet(
  desks: readonly FleetDesk[],
  options: { perProcess: number; everyMs: number; draftEveryMs: number; dir: string; nice?: number },
): Promise<DeskFleet> {
  const processes: DeskProcess[] = [];
  for (let i = 0; i < desks.length; i += options.perProcess) {
    processes.push(
      startProcess(
        {
          desks: desks.slice(i, i + options.perProcess),
          everyMs: options.everyMs,
          draftEveryMs: options.draftEveryMs,
          resultsFile: path.join(options.dir, `desks-${i}.json`),
        },
        options.nice ?? 0,
      ),
    );
  }
  const kill = () => {
    for (const { child } of processes) if (child.exitCode === null) child.kill('SIGKILL');
  };
  try {
    await Promise.all(processes.map((p) => p.next()));
  } catch (error) {
    kill();
    throw error;
  }
  return {
    pids: processes.map((p) => p.child.pid ?? 0),
    async start() {
      for (const p of processes) p.child.stdin.write('start\n');
      await Promise.all(processes.map((p) => p.next()));
    },
    async stop() {
      for (const p of processes) p.child.stdin.write('stop\n');
      await Promise.all(processes.map((p) => p.next()));
    },
    async nextCases(rounds) {
      for (const p of processes) p.child.stdin.write(`next ${JSON.stringify(rounds)}\n`);
      const answers = await Promise.all(processes.map((p) => p.next()));
      return answers.flatMap((answer) => answer.next as NextCaseTake[][]);
    },
    async close() {
      for (const p of processes) p.child.stdin.write('close\n');
      await Promise.all(processes.map((p) => p.next()));
      return processes.flatMap((p) => JSON.parse(readFileSync(p.resultsFile, 'utf8')) as TeamDeskResult[]);
    },
    kill,
  };
}
