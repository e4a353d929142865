// `npm run hub -- <command> --help` prints that command's own help, as `npm run team` does; the general
// usage stays for `--help` alone and for a command line that is not one.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, expect, test } from 'vitest';
import { hubCli } from '#main/team/hub/cli.ts';
import { HUB_HELP } from '#main/team/hub/cli-help.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub-help-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function hub(...args: string[]) {
  let out = '';
  let err = '';
  const status = await hubCli(args, {
    stdin: Readable.from([]),
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    untilStopped: () => new Promise(() => undefined),
  });
  return { status, out, err };
}

const COMMANDS = ['run', 'join', 'leave', 'service', 'status'];

test('each command’s --help is its own: its usage line and what its options do', async () => {
  const general = await hub('--help');
  expect(general).toMatchObject({ status: 0, err: '' });
  expect(general.out).toContain('Commands:');
  const seen = new Set<string>();
  for (const command of COMMANDS) {
    // A data folder is never made for help.
    const run = await hub(command, '--help', '--data-dir', path.join(dir, command));
    expect(run.status, command).toBe(0);
    expect(run.out).toMatch(new RegExp(`^Usage: npm run hub -- ${command}\\b`));
    expect(run.out).not.toBe(general.out);
    expect(existsSync(path.join(dir, command))).toBe(false);
    seen.add(run.out);
  }
  expect(seen.size).toBe(COMMANDS.length);
  expect((await hub('run', '--help')).out).toContain('--retry-seconds S');
  expect((await hub('service', '--help')).out).toContain('--client-id ID');
  expect(Object.keys(HUB_HELP).toSorted()).toEqual(['', ...COMMANDS].toSorted());
});

test('an unknown command, with or without --help, shows the general usage and fails', async () => {
  for (const args of [
    ['frobnicate'],
    ['frobnicate', '--help'],
    ['join', 'extra', '--help'],
    ['constructor'],
  ]) {
    const run = await hub(...args);
    expect(run.status, args.join(' ')).toBe(2);
    expect(run.err).toContain('Commands:');
  }
});
