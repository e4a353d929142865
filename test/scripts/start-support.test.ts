import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BUILD_INPUTS,
  buildCommand,
  downloadHostAnswers,
  needsBuild,
  rememberElectronFailure,
  root,
  shouldTryElectronDownload,
} from '#scripts/start-support.ts';

/** What `npm start` decides before it runs anything: when to build, how, and when to try Electron. */
const dirs: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

function tempTree(files: Record<string, number>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-start-'));
  dirs.push(dir);
  for (const file of Object.keys(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), '');
  }
  // Folders first, then files: a file's time is set last so that its folder's does not move after.
  for (const [file, seconds] of Object.entries(files)) {
    const at = new Date(1_700_000_000_000 + seconds * 1000);
    utimesSync(path.dirname(path.join(dir, file)), at, at);
  }
  for (const [file, seconds] of Object.entries(files)) {
    const at = new Date(1_700_000_000_000 + seconds * 1000);
    utimesSync(path.join(dir, file), at, at);
  }
  return dir;
}

/** Top-level folders of the repository that a source file under `folder` imports from. */
function importedFolders(folder: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name)) {
        for (const [, spec] of readFileSync(full, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
          const target = path.relative(root, path.resolve(dir, spec!)).split(path.sep)[0]!;
          if (!target.startsWith('..')) found.add(target);
        }
      }
    }
  };
  walk(path.join(root, folder));
  return found;
}

describe('npm start', () => {
  it('watches every folder the bundled code imports from', () => {
    for (const entry of ['main', 'preload', 'renderer']) {
      for (const folder of importedFolders(entry))
        expect(BUILD_INPUTS, `${entry} imports ${folder}`).toContain(folder);
    }
  });

  it('builds when any input changed after the last build, the sandbox included', () => {
    const fresh = tempTree({ 'out/renderer/index.html': 100, 'main/a.ts': 50, 'sandbox/b.ts': 60 });
    expect(needsBuild(fresh)).toBe(false);
    const sandboxChanged = tempTree({ 'out/renderer/index.html': 100, 'main/a.ts': 50, 'sandbox/b.ts': 160 });
    expect(needsBuild(sandboxChanged)).toBe(true);
    expect(needsBuild(tempTree({ 'main/a.ts': 50 }))).toBe(true);
  });

  it('runs the build as node with the script of electron-vite, the same on every platform', () => {
    const [command, args] = buildCommand();
    expect(command).toBe(process.execPath);
    expect(args[1]).toBe('build');
    expect(statSync(args[0]!).isFile()).toBe(true);
    expect(args[0]).toMatch(/electron-vite[/\\]bin[/\\]electron-vite\.js$/);
  });

  it('remembers a failed Electron download, and tries again only when asked', () => {
    const base = tempTree({ 'package.json': 0 });
    expect(shouldTryElectronDownload(false, base)).toBe(true);
    rememberElectronFailure('download host unreachable', base);
    expect(shouldTryElectronDownload(false, base)).toBe(false);
    expect(shouldTryElectronDownload(false, base)).toBe(false);
    expect(shouldTryElectronDownload(true, base)).toBe(true);
    expect(shouldTryElectronDownload(false, base)).toBe(true);
  });

  it('gives up on a download host that does not answer, and not on one that does', async () => {
    const listen = async (server: Server) => {
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    };
    const silent = await listen(createServer(() => {})); // takes the request, never answers
    const answering = await listen(createServer((_req, res) => res.writeHead(302, { Location: '/x' }).end()));
    expect(await downloadHostAnswers(silent, 300)).toBe(false);
    expect(await downloadHostAnswers(answering, 10_000)).toBe(true);
    servers[0]!.closeAllConnections();
  });
});
