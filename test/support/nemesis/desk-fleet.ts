// The run's desks as processes (desk-child.ts), and the history they report: each operation as invoked, then
// as it ended. An operation invoked and never ended (its desk stopped answering, crashed, or the run ended
// first) stays `unknown`. A desk that ends by itself is a crash: recorded with the end of its standard error,
// and started again on the same data directory (as its reviewer would reopen the app), working again if the
// run still works, so the run goes on and what the team holds is still checked.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { DeskJob } from './desk-child.ts';
import { crashWords, type Op } from './history.ts';

const CHILD = path.join(import.meta.dirname, 'desk-child.ts');

export interface NemesisDesk {
  name: string;
  /** The process running the desk now. */
  pid(): number;
  /** Resolves when the desk's current process says `word` (ready, started, stopped, closed). */
  said(word: string, timeoutMs: number): Promise<void>;
  /** `start` names the cases notes and claims are about. */
  tell(line: 'start' | 'stop' | 'close', customers?: readonly string[]): void;
  kill(): void;
}

export interface DeskFleetRun {
  desks: NemesisDesk[];
  /** Every operation invoked so far, as it stands. */
  history(): Op[];
  /** Each crash: the desk, how its process ended, the end of its standard error. */
  crashes: string[];
}

export function startNemesisDesks(jobs: ReadonlyArray<DeskJob & { name: string }>): DeskFleetRun {
  const ops = new Map<string, Op>();
  const crashes: string[] = [];
  const desks = jobs.map((job) => nemesisDesk(job, ops, crashes));
  return { desks, history: () => [...ops.values()], crashes };
}

interface Incarnation {
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  words: Set<string>;
  exited: string | null;
  stderr: string;
}

function nemesisDesk(job: DeskJob & { name: string }, ops: Map<string, Op>, crashes: string[]): NemesisDesk {
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const check of waiting) check();
  };
  let working = false;
  let startLine = 'start []';
  let closing = false;
  let current: Incarnation;
  const spawnOne = (incarnation: number) => {
    const child = spawn(
      process.execPath,
      [CHILD, JSON.stringify({ ...job, incarnation, fourEyes: job.fourEyes && incarnation === 1 })],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const self: Incarnation = { child, words: new Set(), exited: null, stderr: '' };
    current = self;
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (chunk: Buffer) => {
      self.stderr = (self.stderr + chunk.toString()).slice(-8_000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = parse(line);
      const op = (message.invoked ?? message.ended) as Op | undefined;
      if (op) ops.set(op.id, op);
      for (const word of Object.keys(message)) self.words.add(word);
      if (message.ready && working && !closing) child.stdin.write(`${startLine}\n`);
      wake();
    });
    child.on('exit', (code, signal) => {
      self.exited = signal ?? `exit ${code}`;
      if (!closing) {
        crashes.push(`${job.name} ended by itself (${self.exited}): ${crashWords(self.stderr)}`);
        spawnOne(incarnation + 1);
      }
      wake();
    });
  };
  spawnOne(1);
  return {
    name: job.name,
    pid: () => current.child.pid ?? 0,
    said: (word, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`Waited ${timeoutMs / 1000} s for ${job.name} to say ${word}.`)),
          timeoutMs,
        );
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiting.delete(check);
          if (error) reject(error);
          else resolve();
        };
        // A desk that crashed while stopping comes back not working: stopped as well.
        const idle =
          word === 'stopped' && !working && current.words.has('ready') && !current.words.has('started');
        const check = () => {
          if (current.words.has(word) || idle) finish();
        };
        waiting.add(check);
        check();
      }),
    tell(line, customers = []) {
      if (line === 'start') {
        working = true;
        startLine = `start ${JSON.stringify(customers)}`;
      }
      if (line === 'stop') working = false;
      if (line === 'close') closing = true;
      current.child.stdin.write(`${line === 'start' ? startLine : line}\n`);
    },
    kill() {
      closing = true;
      if (current.exited === null) current.child.kill('SIGKILL');
    },
  };
}

function parse(line: string): Record<string, unknown> {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return {};
  }
}
