import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listPackage } from '@electron/asar';
import { dump, load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Packages the app for real, the way a release does, minus what cannot run here: electron-builder's
 * `dir` target with a stand-in Electron distribution (the runtime cannot be downloaded) and without
 * the fuses step (it rewrites the Electron binary, which the stand-in is not). Then reads the asar.
 */

const root = path.resolve(import.meta.dirname, '../..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const RENDERER_LIBRARIES = ['react', 'react-dom', 'zustand', '@tanstack/react-virtual'];

let work = '';
let asarFile = '';
let entries: string[] = [];

beforeAll(() => {
  // Normally `npm test` has built already; a lone run of this file builds first (a few seconds).
  if (!existsSync(path.join(root, 'out/main/hosts/electron/index.js')))
    execFileSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'ignore' });
  execFileSync(process.execPath, [path.join(root, 'scripts/icons.ts')], { cwd: root, stdio: 'ignore' });
  work = mkdtempSync(path.join(os.tmpdir(), 'vetted-package-'));
  const config = load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<
    string,
    unknown
  >;
  delete config.electronFuses;
  config.electronDist = standInElectron(path.join(work, 'electron-dist'));
  config.directories = { ...(config.directories as object), output: path.join(work, 'release') };
  const configFile = path.join(work, 'electron-builder.yml');
  writeFileSync(configFile, dump(config));
  execFileSync(bin('electron-builder'), ['--linux', 'dir', '--config', configFile, '--publish', 'never'], {
    cwd: root,
    stdio: 'pipe',
    env: { ...process.env, ELECTRON_BUILDER_OFFLINE: 'true', CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
  });
  asarFile = path.join(work, 'release/linux-unpacked/resources/app.asar');
  entries = listPackage(asarFile, { isPack: false }).map((entry) => entry.split(path.sep).join('/'));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What electron-builder copies from an unpacked Electron: an executable and a resources folder. */
function standInElectron(dir: string): string {
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  writeFileSync(path.join(dir, 'electron'), '#!/bin/sh\necho "stand-in for the Electron runtime"\n');
  chmodSync(path.join(dir, 'electron'), 0o755);
  writeFileSync(path.join(dir, 'LICENSE'), 'stand-in\n');
  writeFileSync(path.join(dir, 'version'), '45.0.0\n');
  return dir;
}

/** The names of every package `npm` installs for production: what may, and must, ship. */
function productionPackages(): Set<string> {
  // npm ls exits non-zero for any oddity of the tree (an extraneous package left by an earlier
  // install) while still printing the whole tree: read what it printed, fail only on nothing.
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: root,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  const out = listed.stdout ?? '';
  if (!out.trim()) throw new Error(`npm ls printed nothing: ${listed.stderr}`);
  return new Set(
    out
      .split('\n')
      .map((line) => line.split(`${path.sep}node_modules${path.sep}`).slice(1).at(-1))
      .filter((name): name is string => Boolean(name))
      .map((name) => name.split(path.sep).join('/')),
  );
}

const hasPackage = (name: string) => entries.includes(`/node_modules/${name}/package.json`);

describe('the packaged app (electron-builder --dir, stand-in Electron)', () => {
  it('holds the built main, preload and renderer', () => {
    expect(entries).toContain('/out/main/hosts/electron/index.js');
    expect(entries.filter((entry) => /^\/out\/preload\/[^/]+\.cjs$/.test(entry)).length).toBeGreaterThan(0);
    expect(entries).toContain('/out/renderer/index.html');
    expect(entries).toContain('/package.json');
  });

  it('holds the production dependencies of main, electron-updater among them', () => {
    for (const name of Object.keys(pkg.dependencies)) expect(hasPackage(name), name).toBe(true);
    expect(hasPackage('electron-updater')).toBe(true);
  });

  it('holds no sources, source maps, tests or docs', () => {
    const forbidden = entries.filter(
      (entry) =>
        // assets/fonts/ ships: the case file's PDF embeds its fonts (main/features/case/case-file-pdf.ts).
        (/^\/(main|contract|preload|renderer|sandbox|test|bench|scripts|docs|assets|build)\//.test(entry) &&
          !/^\/assets\/fonts(\/|$)/.test(entry)) ||
        /\.(map|tsx?|mts|cts|md)$/.test(entry) ||
        /\/(test|tests|__tests__)\//.test(entry),
    );
    expect(forbidden).toEqual([]);
  });

  it('holds neither the renderer’s libraries (bundled by Vite) nor any devDependency', () => {
    for (const name of RENDERER_LIBRARIES) {
      expect(pkg.devDependencies[name], `${name} is a devDependency`).toBeDefined();
      expect(hasPackage(name), name).toBe(false);
    }
    // A devDependency that a production dependency also needs (js-yaml, for electron-updater) must ship.
    const production = productionPackages();
    const devOnly = Object.keys(pkg.devDependencies).filter((name) => !production.has(name));
    expect(devOnly).toContain('electron');
    expect(devOnly.filter(hasPackage)).toEqual([]);
    // It reads every entry of the asar against every package: 5 s here, over 20 s on a very loaded machine.
  }, 60_000);

  it('ships the update feed electron-builder.yml names', () => {
    const feed = load(readFileSync(path.join(path.dirname(asarFile), 'app-update.yml'), 'utf8'));
    expect(feed).toMatchObject({ provider: 'generic', url: expect.stringMatching(/^https:\/\//) });
  });

  it('was built with the icons made from assets/icon.svg', () => {
    const icons = path.join(root, 'build/icons');
    for (const file of ['icon.icns', 'icon.ico'])
      expect(statSync(path.join(icons, file)).size).toBeGreaterThan(1000);
    for (const size of [16, 32, 48, 128, 256, 512, 1024]) {
      const png = readFileSync(path.join(icons, `${size}x${size}.png`));
      // A PNG's IHDR chunk holds its width and height at bytes 16 and 20.
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], `${size}x${size}.png`).toEqual([size, size]);
    }
  });

  it('records the asar size', () => {
    const bytes = statSync(asarFile).size;
    const files = entries.length;
    mkdirSync(path.join(root, 'test-results'), { recursive: true });
    writeFileSync(
      path.join(root, 'test-results/asar-size.json'),
      `${JSON.stringify({ bytes, files }, null, 2)}\n`,
    );
    console.info(`app.asar: ${(bytes / 1024 / 1024).toFixed(2)} MiB, ${files} entries`);
    // A guard against a devDependency slipping in: react-dom alone would add several MiB. 24.3 MiB since the
    // case file's PDF library (pdfkit with fontkit: ~10 MiB with their browser builds, which main never loads —
    // trimming them in electron-builder.yml's files is worth doing once the packaged app can be run here).
    expect(bytes).toBeLessThan(27 * 1024 * 1024);
  });
});
