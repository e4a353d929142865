// A script run in a child process of the test (Node strips its types), for tests that kill it with SIGKILL.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildRun {
  child: ChildProcess;
  /** Its stdout, line by line; on an unexpected exit, its stderr last. */
  lines: string[];
  /** Resolves with the child's exit. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runChild(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  onLine?: (line: string) => void,
): ChildRun {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // A killed child's stdin breaks: nothing more is written to it, and that is expected.
  child.stdin!.on('error', () => {});
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    onLine?.(line);
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal === null) lines.push(`stderr: ${stderr.join('')}`);
      resolve({ code, signal });
    }),
  );
  return { child, exited, lines };
}
