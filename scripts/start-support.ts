import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** What `npm start` decides before it runs anything: kept apart from scripts/start.ts so tests can run it. */

export const root = path.resolve(import.meta.dirname, '..');

/**
 * Every input of the build: the folders whose code the bundles take in (main imports the sandbox),
 * and the files that configure it. A test checks that every folder the code imports from is here.
 */
export const BUILD_INPUTS = [
  'contract',
  'main',
  'preload',
  'renderer',
  'sandbox',
  'electron.vite.config.ts',
  'package.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
];

/** Browser mode's entry in the main bundle (electron.vite.config.ts), which `npm start -- --browser` runs. */
export const BROWSER_BUNDLE = 'out/main/hosts/browser/main.js';

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** True when any input changed after the last build finished (or there was none). */
export function needsBuild(base: string = root): boolean {
  const output = path.join(base, 'out', 'renderer', 'index.html');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  return Math.max(...BUILD_INPUTS.map((entry) => newestMtime(path.join(base, entry)))) > built;
}

/** Before browser mode: a build when an input changed, or when the bundle it runs is missing. */
export function browserBuildNeeded(base: string = root): boolean {
  return needsBuild(base) || !existsSync(path.join(base, BROWSER_BUNDLE));
}

/**
 * The build, as a command that runs the same on every platform: Node with electron-vite's own script,
 * not the `electron-vite` shim on PATH (a `.cmd` file on Windows, which spawn cannot run without a shell).
 */
export function buildCommand(base: string = root): [string, string[]] {
  const require = createRequire(path.join(base, 'package.json'));
  const script = path.join(
    path.dirname(require.resolve('electron-vite/package.json')),
    'bin',
    'electron-vite.js',
  );
  return [process.execPath, [script, 'build']];
}

/** Where a failed download of the Electron runtime is remembered, so that each start does not try again. */
export function electronFailureMarker(base: string = root): string {
  return path.join(base, 'node_modules', '.cache', 'vetted', 'electron-unavailable');
}

export function rememberElectronFailure(reason: string, base: string = root): void {
  const marker = electronFailureMarker(base);
  mkdirSync(path.dirname(marker), { recursive: true });
  writeFileSync(marker, `${new Date().toISOString()} ${reason}\n`);
}

/** Whether to try the download this time: not after a remembered failure, unless asked (`--retry-electron`). */
export function shouldTryElectronDownload(retry: boolean, base: string = root): boolean {
  const marker = electronFailureMarker(base);
  if (retry) rmSync(marker, { force: true });
  return !existsSync(marker);
}

/** Where the runtime comes from: Electron's mirror setting, else its releases on GitHub. */
export function electronDownloadHost(env: NodeJS.ProcessEnv = process.env): string {
  return (
    env.ELECTRON_MIRROR ?? env.npm_config_electron_mirror ?? 'https://github.com/electron/electron/releases/'
  );
}

/**
 * Whether the download host answers at all, within `timeoutMs`. A network that drops the traffic makes the
 * download itself hang for minutes; this says so in seconds, and the download then runs only where it can.
 */
export async function downloadHostAnswers(url: string, timeoutMs = 10_000): Promise<boolean> {
  try {
    await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  }
}
