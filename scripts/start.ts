import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, enableCompileCache } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  BROWSER_BUNDLE,
  browserBuildNeeded,
  buildCommand,
  downloadHostAnswers,
  electronDownloadHost,
  rememberElectronFailure,
  root,
  shouldTryElectronDownload,
} from './start-support.ts';

/**
 * `npm start`: build if the sources changed, then run Vetted under Electron. Where the Electron
 * runtime cannot be had (it is downloaded on demand, and some machines cannot reach it), say so
 * in one line and run browser mode instead; a failed download is remembered, so later starts do not
 * wait for it again (`--retry-electron` tries anyway). `--browser` asks for browser mode; `--port`
 * picks its port. Browser mode runs the built bundle in this same process: no second Node to launch, and no
 * TypeScript to strip at start.
 */

function buildIfNeeded(): void {
  if (!browserBuildNeeded()) return;
  process.stdout.write('Building Vetted…\n');
  const [command, args] = buildCommand();
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write('The build failed; see the errors above.\n');
    process.exit(1);
  }
}

/**
 * The path of the Electron binary, or why there is none. The electron package fetches its
 * runtime on first use; we make that attempt ourselves, quietly, so a failure is one clear line.
 */
async function electronBinary(retry: boolean): Promise<{ path: string } | { missing: string }> {
  const packageDir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  const installed = () =>
    existsSync(pathFile) && existsSync(path.join(packageDir, 'dist', readFileSync(pathFile, 'utf8')));
  if (!process.env.ELECTRON_OVERRIDE_DIST_PATH && !installed()) {
    if (!shouldTryElectronDownload(retry)) {
      return {
        missing: 'its runtime could not be downloaded before; `npm start -- --retry-electron` tries again',
      };
    }
    process.stdout.write('Fetching the Electron runtime…\n');
    if (!(await downloadHostAnswers(electronDownloadHost()))) {
      rememberElectronFailure('download host unreachable');
      return { missing: 'its download host cannot be reached from here' };
    }
    const fetched = spawnSync(process.execPath, [path.join(packageDir, 'install.js')], {
      stdio: 'pipe',
      timeout: 300_000,
    });
    if (fetched.status !== 0 || !installed()) {
      rememberElectronFailure('download failed');
      return { missing: 'its runtime could not be downloaded' };
    }
  }
  try {
    return { path: createRequire(import.meta.url)('electron') as string };
  } catch {
    return { missing: 'its runtime is not installed' };
  }
}

function runElectron(binary: string, verbose: boolean): void {
  const child = spawn(binary, [root, ...(verbose ? ['--verbose'] : [])], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      browser: { type: 'boolean', default: false },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'retry-electron': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  buildIfNeeded();
  if (!values.browser) {
    const electron = await electronBinary(values['retry-electron']);
    if ('path' in electron) return runElectron(electron.path, values.verbose);
    process.stdout.write(
      `Electron is not available here (${electron.missing}; \`npx install-electron\` fetches it), so Vetted starts in browser mode.\n`,
    );
  }
  const args: string[] = [];
  if (values.port !== undefined) args.push('--port', values.port);
  if (values['data-dir'] !== undefined) args.push('--data-dir', values['data-dir']);
  // V8 keeps the bundle's compiled code between starts (a 2 MB bundle costs ~0.1 s to compile each time).
  enableCompileCache(path.join(root, 'node_modules', '.cache', 'vetted', 'compile'));
  const browserMode = (await import(pathToFileURL(path.join(root, BROWSER_BUNDLE)).href)) as {
    main(args: string[]): Promise<void>;
  };
  if (values.verbose) args.push('--verbose');
  await browserMode.main(args);
}

await main();
