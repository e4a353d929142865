// The hub's command line as a child process (`npm run hub -- …`), for tests of what a terminal sees.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
export const HUB_SCRIPT = path.join(root, 'scripts/hub.ts');
/** The same process with a stand-in core, for `run`. */
export const HUB_WITH_FAKE_CORE = path.join(root, 'test/support/team/hub-fake-core.ts');

export interface HubChild {
  child: ChildProcessWithoutNullStreams;
  output: { out: string; err: string };
  exited: Promise<number | null>;
}

/** `input` null: standard input stays open, as a terminal waiting for a line would. */
export function startHubProcess(args: string[], input: string | null = '', script = HUB_SCRIPT): HubChild {
  const child = spawn(process.execPath, [script, ...args], { cwd: root });
  const output = { out: '', err: '' };
  child.stdout.on('data', (chunk) => {
    output.out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.err += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve(status ?? (signal ? -1 : null)));
  });
  if (input !== null) child.stdin.end(input);
  return { child, output, exited };
}

/** Runs one command to its end. */
export async function hubCommand(args: string[], input = '') {
  const started = startHubProcess(args, input);
  const status = await started.exited;
  return { status, ...started.output };
}
