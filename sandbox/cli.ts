/**
 * The standalone sandbox: `npm run sandbox -- --port 8787 --data ./sandbox.db [--review-delay-ms N] [--token-ttl S] [--profile real]`.
 * Prints one JSON line (baseUrl and credentials) on stdout, one line per request on stderr, and
 * stops cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './index.ts';
import { PROFILE_NAMES, type ProfileName } from './profiles/index.ts';

const USAGE =
  'usage: npm run sandbox -- [--port N] [--data PATH|:memory:] [--review-delay-ms N] [--token-ttl S]\n' +
  '                         [--profile interface|real]\n' +
  '  --port 0 picks a free port (default); --data defaults to :memory:.\n' +
  "  --profile interface (default) follows the interface document; real behaves like today's\n" +
  '  real service (token at /token, form + Basic; kba/unverified/deactivated; see sandbox/README.md).\n';

function profileOption(value: string | undefined): ProfileName | undefined {
  if (value === undefined) return undefined;
  if ((PROFILE_NAMES as readonly string[]).includes(value)) return value as ProfileName;
  throw new Error(`--profile must be ${PROFILE_NAMES.join(' or ')}, got "${value}".`);
}

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number))
    throw new Error(`--${name} must be a number, got "${value}".`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      data: { type: 'string' },
      'review-delay-ms': { type: 'string' },
      'token-ttl': { type: 'string' },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const sandbox = await startSandbox({
    port: numberOption(values.port, 'port') ?? 0,
    data: values.data ?? ':memory:',
    reviewDelayMs: numberOption(values['review-delay-ms'], 'review-delay-ms'),
    tokenTtlSeconds: numberOption(values['token-ttl'], 'token-ttl'),
    profile: profileOption(values.profile),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const stop = (signal: string): void => {
    process.stderr.write(`sandbox: ${signal} received, stopping\n`);
    sandbox.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        process.stderr.write(`sandbox: error while stopping: ${String(error)}\n`);
        process.exitCode = 1;
      },
    );
  };
  // Before the line goes out: whoever reads it may signal at once.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stderr.write(`sandbox: ${sandbox.profile} profile, tokens at ${sandbox.tokenUrl}\n`);
  const { baseUrl, clientId, clientSecret } = sandbox;
  process.stdout.write(`${JSON.stringify({ baseUrl, clientId, clientSecret })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exitCode = 1;
});
