import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm start`: build if the sources changed, then run Vetted under Electron. Where the Electron
 * runtime cannot be had (it is downloaded on demand, and some machines cannot reach it), say so
 * in one line and run browser mode instead. `--browser` asks for browser mode; `--port` picks its port.
 */

const root = path.resolve(import.meta.dirname, '..');
const SOURCES = ['contract', 'main', 'preload', 'renderer', 'electron.vite.config.ts', 'package.json'];

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

function buildIfNeeded(): void {
  const output = path.join(root, 'out', 'renderer', 'index.html');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const changed = Math.max(...SOURCES.map((entry) => newestMtime(path.join(root, entry))));
  if (built >= changed) return;
  process.stdout.write('Building Vetted…\n');
  const result = spawnSync('electron-vite', ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write('The build failed; see the errors above.\n');
    process.exit(1);
  }
}

/**
 * The path of the Electron binary, or why there is none. The electron package fetches its
 * runtime on first use; we make that attempt ourselves, quietly, so a failure is one clear line.
 */
function electronBinary(): { path: string } | { missing: string } {
  const packageDir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  const installed = () =>
    existsSync(pathFile) && existsSync(path.join(packageDir, 'dist', readFileSync(pathFile, 'utf8')));
  if (!process.env.ELECTRON_OVERRIDE_DIST_PATH && !installed()) {
    process.stdout.write('Fetching the Electron runtime…\n');
    const fetched = spawnSync(process.execPath, [path.join(packageDir, 'install.js')], {
      stdio: 'pipe',
      timeout: 300_000,
    });
    if (fetched.status !== 0 || !installed()) return { missing: 'its runtime could not be downloaded' };
  }
  try {
    return { path: createRequire(import.meta.url)('electron') as string };
  } catch {
    return { missing: 'its runtime is not installed' };
  }
}

function runElectron(binary: string): void {
  const child = spawn(binary, [root], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      browser: { type: 'boolean', default: false },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  buildIfNeeded();
  if (!values.browser) {
    const electron = electronBinary();
    if ('path' in electron) return runElectron(electron.path);
    process.stdout.write(
      `Electron is not available here (${electron.missing}; \`npx install-electron\` fetches it), so Vetted starts in browser mode.\n`,
    );
  }
  const args = ['main/browser/main.ts'];
  if (values.port !== undefined) args.push('--port', values.port);
  if (values['data-dir'] !== undefined) args.push('--data-dir', values['data-dir']);
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

await main();
