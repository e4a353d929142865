import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDesk } from '#main/compose/desk.ts';
import { openLogFile } from '#main/ground/log/log-file.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { guardProcess } from '#main/ground/log/process-guard.ts';
import { openFileKeyVault, openVaultRecovering } from '#main/ground/vault/vault.ts';
import { startSandbox } from '#sandbox/index.ts';
import { startBrowserHost } from './host.ts';

/** `npm start -- --browser`: the desk in plain Node, the renderer in any browser on this machine. */

/**
 * The folder holding package.json: three up from main/hosts/browser/ when run from the sources, four up from
 * out/main/hosts/browser/ (or a chunk beside it) when run from the bundle that `npm start` runs.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '../../..');
  }
}
const projectRoot = findProjectRoot(import.meta.dirname);

export interface BrowserModeOptions {
  port?: number;
  dataDir?: string;
  rendererDir?: string;
  /**
   * Where log lines go besides the log file in the data directory (`vetted.log`): nowhere by default,
   * so the terminal shows the address alone; `--verbose` passes standard error.
   */
  writeLog?: (line: string) => void;
  /** Installs the process's last net (log/process-guard.ts): the command line does; tests in-process do not. */
  guardProcess?: boolean;
}

export function defaultBrowserDataDir(): string {
  const config = process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config');
  return path.join(config, 'Vetted', 'browser-mode');
}

export async function runBrowserMode(options: BrowserModeOptions = {}) {
  const dataDir = options.dataDir ?? defaultBrowserDataDir();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const logFile = openLogFile(dataDir);
  const log = createLogger((line) => {
    logFile.write(line);
    options.writeLog?.(line);
  });
  if (options.guardProcess) guardProcess({ log });
  const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    version: string;
  };
  let vaultProblem: string | null = null;
  const vault = openVaultRecovering(
    () => openFileKeyVault({ dir: dataDir }),
    (problem) => {
      vaultProblem = problem;
      log.warn('vault problem', { problem });
    },
  );
  // Known once the host listens: a case's address (case.link) is this origin's route to it.
  let origin: string | null = null;
  const desk = await createDesk({
    host: 'browser',
    version,
    dataDir,
    log,
    vault,
    vaultProblem,
    startSandbox,
    browserOrigin: () => origin,
  });
  const host = await startBrowserHost({
    dispatch: desk.dispatcher((session) => session.authenticated),
    events: desk.events,
    rendererDir: options.rendererDir ?? path.join(projectRoot, 'out', 'renderer'),
    onRequest: (request) => log.info('desk request', request),
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  origin = host.origin;
  return {
    launchUrl: host.launchUrl,
    logFile: logFile.path,
    /** The desk itself, for tests that drive the sandbox behind it. */
    desk,
    async close() {
      await host.close();
      await desk.close();
      logFile.close();
    },
  };
}

/** Browser mode from the command line (`--port`, `--data-dir`): prints the address once it listens. */
export async function main(args: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    process.stderr.write(`--port must be a number from 0 to 65535, not ${values.port}\n`);
    process.exit(2);
  }
  const running = await runBrowserMode({
    guardProcess: true,
    ...(port === undefined ? {} : { port }),
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    // Quiet by default: the log file has every line; only errors reach the terminal unasked.
    writeLog: (line) => {
      if (values.verbose || line.includes('"level":"error"')) process.stderr.write(`${line}\n`);
    },
  });
  process.stdout.write(`Vetted is running in browser mode. Open: ${running.launchUrl}\n`);
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) await main();
