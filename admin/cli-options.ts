// The command line's options, and what they make of a join code: where desks connect, with or without TLS.
import type { parseArgs } from 'node:util';
import { parseHostList, StoreNodesError, withNodes } from '#main/team/store/store-nodes.ts';
import type { AdminUrl } from './admin-connection.ts';
import { TeamAdminError } from './errors.ts';
import type { AddReviewerOptions } from './reviewers.ts';

export const OPTIONS = {
  database: { type: 'string' },
  'key-file': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'direct-host': { type: 'string' },
  'direct-port': { type: 'string' },
  sslmode: { type: 'string' },
  ca: { type: 'string' },
  file: { type: 'string' },
  head: { type: 'string' },
  reseal: { type: 'boolean' },
  'join-codes': { type: 'boolean' },
  batch: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

/** Said on stderr whenever a join code tells desks to connect without TLS: the administrator chose it. */
export const NO_TLS_WARNING =
  'WARNING: this join code tells the desks to connect WITHOUT TLS (sslmode disable): the password exchange ' +
  'is protected (SCRAM), but every query and answer crosses the network readable. Only for a store on the ' +
  "desks' own machine or a private network you trust.\n";

/**
 * What a join code tells desks (add-reviewer, join-code): TLS as the administrator's URL asks for it
 * (sslmode=verify-full, its sslrootcert) unless --sslmode says otherwise. A URL that does not ask for TLS is
 * not taken as a choice to go without: the administrator says so with --sslmode disable.
 */
export function reviewerOptions(
  command: string,
  name: string,
  values: Values,
  admin: AdminUrl,
): AddReviewerOptions {
  const keyFile = values['key-file'];
  if (!keyFile) throw new TeamAdminError(`${command} needs --key-file FILE (the file init wrote).`);
  const sslmode =
    values.sslmode ?? (values.ca || admin.sslmode === 'verify-full' ? 'verify-full' : undefined);
  if (sslmode === undefined) {
    throw new TeamAdminError(
      `--database does not ask for sslmode=verify-full, so the join code would tell the desks to connect without TLS. ` +
        'Give --sslmode verify-full (with --ca CA.pem, or sslrootcert in the URL), or --sslmode disable for a ' +
        'store on the desks’ own machine or a private network you trust.',
    );
  }
  if (sslmode !== 'verify-full' && sslmode !== 'disable') {
    throw new TeamAdminError('--sslmode is verify-full or disable.');
  }
  if (values.ca && sslmode === 'disable') throw new TeamAdminError('--ca needs --sslmode verify-full.');
  // Desks verify the server with the CA the administrator's own connection trusts, unless told otherwise.
  const ca = values.ca ?? (sslmode === 'verify-full' ? admin.sslrootcert : undefined);
  const nodes = deskNodes(values, admin);
  const direct = directOption(values, admin);
  if (direct && nodes.standbys)
    throw new TeamAdminError('--direct-host is for one --host (a pooler), not a list.');
  return {
    name,
    keyFile,
    ...nodes,
    sslmode,
    ...(ca ? { caFile: ca } : {}),
    ...(direct ? { direct } : {}),
  };
}

/** --host and --port, one each or libpq's lists (`--host a,b --port 5432,5433`): the store's nodes in order. */
function deskNodes(values: Values, admin: AdminUrl): ReturnType<typeof withNodes> {
  try {
    return withNodes(
      parseHostList(values.host ?? admin.target.host, values.port, admin.target.port, '--host/--port'),
    );
  } catch (error) {
    if (error instanceof StoreNodesError) throw new TeamAdminError(error.message);
    throw error;
  }
}

function portOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new TeamAdminError(`${name} is a port number.`);
  return port;
}

/**
 * Where desks open what needs a session of its own when --host/--port is a pooler in transaction mode: the
 * server itself, by default at the port of --database (the administrator's own connection goes there).
 */
function directOption(values: Values, admin: AdminUrl): { host: string; port: number } | undefined {
  const port = portOption('--direct-port', values['direct-port']);
  const host = values['direct-host'];
  if (!host) {
    if (port !== undefined) throw new TeamAdminError('--direct-port needs --direct-host.');
    return undefined;
  }
  return { host, port: port ?? admin.target.port };
}
