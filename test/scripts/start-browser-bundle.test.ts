import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BROWSER_BUNDLE, browserBuildNeeded, buildCommand, root } from '#scripts/start-support.ts';

/** `npm start -- --browser` runs the built browser-mode bundle in its own process, built on demand. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: string[], seconds: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-start-bundle-'));
  dirs.push(dir);
  const at = new Date(1_700_000_000_000 + seconds * 1000);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), '');
  }
  for (const file of files) {
    utimesSync(path.dirname(path.join(dir, file)), at, at);
    utimesSync(path.join(dir, file), at, at);
  }
  return dir;
}

describe('npm start -- --browser', () => {
  it('builds when the browser bundle is missing, even if the renderer is up to date', () => {
    const sources = tree(['main/a.ts'], 50);
    const built = path.join(sources, 'out', 'renderer', 'index.html');
    mkdirSync(path.dirname(built), { recursive: true });
    writeFileSync(built, '');
    expect(browserBuildNeeded(sources)).toBe(true);
    const bundle = path.join(sources, BROWSER_BUNDLE);
    mkdirSync(path.dirname(bundle), { recursive: true });
    writeFileSync(bundle, '');
    expect(browserBuildNeeded(sources)).toBe(false);
  });

  it('prints the address from the bundle, one Node process, and stops on SIGTERM', async () => {
    if (browserBuildNeeded()) {
      const [command, args] = buildCommand();
      expect(spawnSync(command, args, { cwd: root, stdio: 'ignore' }).status).toBe(0);
    }
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-start-bundle-data-'));
    dirs.push(dataDir);
    const child = spawn(
      process.execPath,
      ['scripts/start.ts', '--browser', '--port', '0', '--data-dir', dataDir],
      { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let output = '';
    const address = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /Open: (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(output);
        if (found) resolve(found[1]!);
      });
      void exited.then((code) => reject(new Error(`exited (${code}) before the address: ${output}`)));
    });
    expect((await fetch(address)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
