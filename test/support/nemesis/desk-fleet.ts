// The run's desks as processes (desk-child.ts), started first (they load their modules while the team is
// made) and opened once their data directories are joined, and the history they report: each operation as
// invoked, then as it ended. An operation invoked and never ended (its desk stopped answering, crashed, or the run ended
// first) stays `unknown`. A desk that ends by itself is a crash: recorded with the end of its standard error,
// and started again on the same data directory (as its reviewer would reopen the app), working again if the
// run still works, so the run goes on and what the team holds is still checked.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { DeskJob } from './desk-child.ts';
import { crashWords, type Op } from './history.ts';

const CHILD = path.join(import.meta.dirname, 'desk-child.ts');
/**
 * Node's compile cache for the desks' modules (checked against each file's contents): a desk started again,
 * or in a later run, compiles less of its boot (a fifth of its CPU, measured on a loaded machine).
 */
const COMPILE_CACHE = path.join(os.tmpdir(), 'vetted-nemesis-compile-cache');

export interface NemesisDesk {
  name: string;
  /** Composes the desk on its joined data directory (and each process started after a crash). */
  open(job: DeskJob): void;
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

export function startNemesisDesks(names: readonly string[]): DeskFleetRun {
  const ops = new Map<string, Op>();
  const crashes: string[] = [];
  const desks = names.map((name) => nemesisDesk(name, ops, crashes));
  return { desks, history: () => [...ops.values()], crashes };
}

interface Incarnation {
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  words: Set<string>;
  exited: string | null;
  stderr: string;
}

function nemesisDesk(name: string, ops: Map<string, Op>, crashes: string[]): NemesisDesk {
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const check of waiting) check();
  };
  let working = false;
  let startLine = 'start []';
  let closing = false;
  let current: Incarnation;
  let job: DeskJob | undefined;
  let incarnation = 0;
  const openLine = () =>
    `open ${JSON.stringify({ ...job, incarnation, fourEyes: job!.fourEyes && incarnation === 1 })}\n`;
  const spawnOne = () => {
    incarnation += 1;
    const child = spawn(process.execPath, [CHILD], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE },
    });
    const self: Incarnation = { child, words: new Set(), exited: null, stderr: '' };
    current = self;
    child.stdin.on('error', () => undefined);
    if (job) child.stdin.write(openLine());
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
        crashes.push(`${name} ended by itself (${self.exited}): ${crashWords(self.stderr)}`);
        spawnOne();
      }
      wake();
    });
  };
  spawnOne();
  return {
    name,
    open(given) {
      job = given;
      current.child.stdin.write(openLine());
    },
    pid: () => current.child.pid ?? 0,
    said: (word, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`Waited ${timeoutMs / 1000} s for ${name} to say ${word}.`)),
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
