// `npm run hub -- <command>` (`vetted-hub` in the package). Secrets (join code, database password, client
// secret) come on standard input, never as arguments: the command line shows in `ps` to every user.
import { mkdirSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { openLogFile } from '#main/ground/log/log-file.ts';
import { createLogger, describeError, type Logger } from '#main/ground/log/logger.ts';
import { VaultError } from '#main/ground/vault/vault.ts';
import { HUB_HELP } from './cli-help.ts';
import { joinCommand, leaveCommand, serviceCommand, statusCommand } from './commands.ts';
import {
  connectTeam,
  defaultHubDataDir,
  type HubConfig,
  HubError,
  type HubTeam,
  hubTeam,
  LEADERSHIP_ANSWER_MS,
  openHubConfig,
} from './hub-config.ts';
import { leadershipQuietMs } from './leadership.ts';
import { DEFAULT_RETRY_MS, type HubRoles, runHub } from './run-hub.ts';
import { readAnswers } from './stdin-lines.ts';

/** The general usage, shown with a mistake on the command line. */
export const HUB_USAGE = HUB_HELP['']!;

/** What `run` gives the coordinator's composition of the hub core. */
export interface HubRunContext {
  config: HubConfig;
  team: HubTeam;
  log: Logger;
  /** `--port` (0: any free port) and `--public-url`, overriding the settings for this run. */
  port?: number;
  publicUrl?: string;
}

export type HubRolesFactory = (context: HubRunContext) => HubRoles;

export interface HubIo {
  stdin: Readable;
  out(text: string): void;
  err(text: string): void;
  /**
   * Resolves when the hub must stop (SIGTERM/SIGINT). Asked for by `run` only: the one-shot commands keep
   * the default, so Ctrl-C at a prompt ends them.
   */
  untilStopped(): Promise<unknown>;
  /** The process's last net (log/process-guard.ts), given the command's log: the real process only, not tests. */
  guard?(log: Logger): void;
}

const OPTIONS = {
  'data-dir': { type: 'string' },
  verbose: { type: 'boolean', default: false },
  port: { type: 'string' },
  'public-url': { type: 'string' },
  database: { type: 'string' },
  'base-url': { type: 'string' },
  'client-id': { type: 'string' },
  sandbox: { type: 'boolean', default: false },
  'retry-seconds': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** Runs one command; answers the exit status (0 done, 1 refused, 2 usage). */
export async function hubCli(args: string[], io: HubIo, roles?: HubRolesFactory): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${HUB_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals[0] ?? 'run';
  const known = command !== '' && Object.hasOwn(HUB_HELP, command);
  if (values.help && positionals.length <= 1 && (known || positionals.length === 0)) {
    // `hub -- --help`: the general usage; `hub -- join --help`: that command's own.
    io.out(positionals.length === 0 ? HUB_USAGE : (HUB_HELP[command] ?? HUB_USAGE));
    return 0;
  }
  if (values.help || positionals.length > 1 || !known) {
    io.err(HUB_USAGE);
    return 2;
  }
  const dataDir = values['data-dir'] ?? defaultHubDataDir();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const logFile = openLogFile(dataDir);
  const log = createLogger((line) => {
    logFile.write(line);
    if (values.verbose || line.includes('"level":"error"')) io.err(`${line}\n`);
  });
  io.guard?.(log);
  try {
    const config = openHubConfig(dataDir, log);
    if (command === 'join') {
      const [code, password] = await readAnswers(
        io.stdin,
        [
          { label: 'Join code', hidden: true },
          { label: 'Database password', hidden: true },
        ],
        io.err,
      );
      io.out(`${await joinCommand(config, { code, password }, log)}\n`);
    } else if (command === 'leave') {
      io.out(`${await leaveCommand(config, log)}\n`);
    } else if (command === 'service') {
      io.out(`${await service(config, values, io, log)}\n`);
    } else if (command === 'status') {
      io.out(`${(await statusCommand(config, log)).join('\n')}\n`);
    } else {
      await run(config, values, io, log, roles);
    }
    return 0;
  } catch (error) {
    // A vault that cannot be used says why in words naming its file, never a secret.
    if (error instanceof HubError || error instanceof VaultError) {
      io.err(`hub: ${error.message}\n`);
      return 1;
    }
    log.error('hub command failed', describeError(error));
    io.err('hub: something unexpected went wrong; details are in the log.\n');
    return 1;
  } finally {
    logFile.close();
  }
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

async function service(config: HubConfig, values: Values, io: HubIo, log: Logger): Promise<string> {
  if (values.sandbox) return serviceCommand(config, { sandbox: true });
  const baseUrl = values['base-url'];
  const clientId = values['client-id'];
  if (!baseUrl || !clientId) {
    throw new HubError('service needs --base-url URL and --client-id ID (or --sandbox).');
  }
  const [secret] = await readAnswers(io.stdin, [{ label: 'Client secret', hidden: true }], io.err);
  if (secret) log.addSecret(secret);
  return serviceCommand(config, { sandbox: false, baseUrl, clientId }, secret);
}

async function run(config: HubConfig, values: Values, io: HubIo, log: Logger, roles?: HubRolesFactory) {
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new HubError('--port must be a number from 0 to 65535.');
  }
  const retrySeconds = values['retry-seconds'] === undefined ? undefined : Number(values['retry-seconds']);
  if (retrySeconds !== undefined && !(retrySeconds >= 0.05 && retrySeconds <= 3600)) {
    throw new HubError('--retry-seconds must be a number from 0.05 to 3600.');
  }
  const team = hubTeam(config, values.database);
  if (!roles) {
    throw new HubError(
      'this build of the hub has no core to run (its composition is not part of this build).',
    );
  }
  const context: HubRunContext = {
    config,
    team,
    log,
    ...(port === undefined ? {} : { port }),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
  };
  const stopped = io.untilStopped();
  const retryMs = retrySeconds === undefined ? DEFAULT_RETRY_MS : retrySeconds * 1000;
  // The server ends the leadership session once it is quieter than a live hub ever is (a silent network).
  const quietMs = leadershipQuietMs(retryMs, LEADERSHIP_ANSWER_MS);
  const hub = await runHub(
    {
      connect: () => connectTeam(team, LEADERSHIP_ANSWER_MS, quietMs),
      say: (line) => io.out(`${line}\n`),
      log,
      retryMs,
    },
    roles(context),
  );
  await stopped;
  await hub.close();
  io.out('hub: stopped (listener role released)\n');
}
