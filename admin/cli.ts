// `npm run team -- <command>`: the administrator's tasks (scripts/team.ts runs this). Output goes to `io`, so
// tests read what an administrator would see. Every failure is one sentence on stderr and exit code 1.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import {
  nodesText,
  parseHostList,
  StoreNodesError,
  storeNodes,
  withNodes,
} from '#main/team/store/store-nodes.ts';
import { type AdminUrl, adminErrorText, connectAdmin, parseAdminUrl } from './admin-connection.ts';
import { TEAM_HELP } from './cli-help.ts';
import { TeamAdminError } from './errors.ts';
import { addHub, markHub } from './hubs.ts';
import { initTeam, migrateTeam } from './init.ts';
import {
  type AddReviewerOptions,
  addReviewer,
  JOIN_CODE_DAYS,
  removeReviewer,
  resetReviewerPassword,
  reviewerJoinCode,
} from './reviewers.ts';
import { parseRole, setReviewerRole } from './roles.ts';
import { resealWithKeyFile, rotateTeamKey } from './rotate-key.ts';
import { formatTeamStatus, teamStatus } from './status.ts';
import {
  exportVerdictText,
  parseChainPoint,
  storeVerdictText,
  verifyExportFile,
  verifyStoreAudit,
} from './verify-audit.ts';

export interface TeamCliIo {
  out(text: string): void;
  err(text: string): void;
}

const OPTIONS = {
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

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export async function runTeamCli(argv: readonly string[], io: TeamCliIo): Promise<number> {
  let admin: AdminUrl | undefined;
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
    const [command = '', ...rest] = positionals;
    if (!(command in TEAM_HELP) || values.help || !command) {
      io.out(TEAM_HELP[command] ?? TEAM_HELP['']!);
      return command && !(command in TEAM_HELP) ? 1 : values.help ? 0 : 1;
    }
    // An export is checked offline: no database.
    if (command === 'verify-audit' && values.file) {
      if (values.database || values.head) {
        throw new TeamAdminError(
          'verify-audit --file checks the file alone: leave out --database and --head.',
        );
      }
      io.out(exportVerdictText(verifyExportFile(values.file, values['key-file'])));
      return 0;
    }
    if (!values.database) throw new TeamAdminError(`${command} needs --database URL (see --help).`);
    admin = parseAdminUrl(values.database);
    const client = await connectAdmin(admin);
    try {
      await runCommand(command, rest, values, admin, client, io);
    } finally {
      await client.end().catch(() => undefined);
    }
    return 0;
  } catch (error) {
    io.err(`${adminErrorText(error, admin)}\n`);
    return 1;
  }
}

const LEAD_CAN =
  'They may now reassign and take over cases, export names, remove stored images and change the team settings.';
const REVIEWER_CANNOT =
  'They may no longer reassign or take over cases, export names, remove stored images or change the team settings.';

/** host:port/database, the direct address if any, the TLS mode: what a join code tells desks. */
function whereDesksGo(connection: TeamConnection): string {
  const { database, direct, sslmode } = connection;
  const sessions = direct ? `, sessions of their own at ${direct.host}:${direct.port}` : '';
  const writable = connection.standbys ? ' (whichever accepts writes)' : '';
  return `${nodesText(storeNodes(connection))}/${database}${writable}${sessions}, sslmode ${sslmode}`;
}

function oneName(command: string, rest: string[]): string {
  if (rest.length !== 1) throw new TeamAdminError(`${command} takes one NAME (see --help).`);
  return rest[0]!;
}

async function runCommand(
  command: string,
  rest: string[],
  values: Values,
  admin: AdminUrl,
  client: pg.Client,
  io: TeamCliIo,
): Promise<void> {
  switch (command) {
    case 'init': {
      const keyFile = path.resolve(values['key-file'] ?? `${admin.target.database}.team-key`);
      const result = await initTeam(client, { keyFile });
      io.out(
        `The team store is ready: team ${result.teamId}, schema version ${result.schema}, reviewers' group role ${result.reviewerRole}.\n` +
          `The team key is in ${keyFile} (readable by you only). Keep it safe and backed up apart from the database:\n` +
          'you need it to add reviewers (add-reviewer --key-file), and without it the team data cannot be read.\n',
      );
      return;
    }
    case 'add-reviewer': {
      const name = oneName(command, rest);
      const options = reviewerOptions(command, name, values, admin);
      if (options.sslmode === 'disable') io.err(NO_TLS_WARNING);
      const reviewer = await addReviewer(client, options);
      io.out(
        `Reviewer ${name} added (${whereDesksGo(reviewer.connection)}).\n\n` +
          `JOIN CODE for ${name} (Settings → Team → Join; it holds the team key: hand it over privately):\n` +
          `${reviewer.joinCode}\n\n` +
          `ONE-TIME PASSWORD for ${name} (hand it over by another channel than the join code; it is not shown again):\n` +
          `${reviewer.password}\n`,
      );
      return;
    }
    case 'add-hub':
    case 'mark-hub':
      await runHubCommand(command, oneName(command, rest), values, admin, client, io);
      return;
    case 'join-code': {
      const name = oneName(command, rest);
      const options = reviewerOptions(command, name, values, admin);
      if (options.sslmode === 'disable') io.err(NO_TLS_WARNING);
      const { joinCode, connection } = await reviewerJoinCode(client, options);
      io.out(
        `A fresh join code for ${name} (${whereDesksGo(connection)}), for one use within ${JOIN_CODE_DAYS} days; their older unused codes no longer work.\n\n` +
          `JOIN CODE for ${name} (Settings → Team → Join; it holds the team key: hand it over privately):\n` +
          `${joinCode}\n`,
      );
      return;
    }
    case 'remove-reviewer': {
      const name = oneName(command, rest);
      const removed = await removeReviewer(client, name);
      io.out(
        `${name} can no longer log in to the team store; ${removed.sessionsEnded} open session(s) ended. ` +
          `Their audit rows and notes stay.\n${removed.sessionsLeft ? `${removed.sessionsLeft}\n` : ''}` +
          (removed.rotationAdvised ? ROTATION_ADVISED(name) : ''),
      );
      return;
    }
    case 'reset-password': {
      const name = oneName(command, rest);
      const reset = await resetReviewerPassword(client, name);
      io.out(
        `${name} has a new password; ${reset.sessionsEnded} open session(s) with the old one ended. ` +
          'Their join code is unchanged:\non their desk, Settings → Team → New password… takes this password.\n' +
          `${reset.sessionsLeft ? `${reset.sessionsLeft}\n` : ''}\n` +
          `ONE-TIME PASSWORD for ${name} (hand it over by another channel than the join code; it is not shown again):\n` +
          `${reset.password}\n`,
      );
      return;
    }
    case 'set-role': {
      if (rest.length !== 2) throw new TeamAdminError('set-role takes NAME and a role: lead or reviewer.');
      const [name = '', role] = rest;
      const keyFile = values['key-file'];
      if (!keyFile) {
        throw new TeamAdminError(
          'set-role needs --key-file FILE (the file init wrote): the change is sealed into the audit chain.',
        );
      }
      const { from, to } = await setReviewerRole(client, { name, role: parseRole(role), keyFile });
      io.out(
        from === to
          ? `${name} is already a ${to}; nothing changed.\n`
          : `${name} is now a ${to} (was a ${from}). ${to === 'lead' ? LEAD_CAN : REVIEWER_CANNOT}\n`,
      );
      return;
    }
    case 'rotate-key':
    case 'reseal': {
      const keyFile = values['key-file'];
      if (!keyFile) throw new TeamAdminError(`${command} needs --key-file FILE (the file init wrote).`);
      const batch = values.batch === undefined ? undefined : Number(values.batch);
      if (batch !== undefined && !(Number.isInteger(batch) && batch > 0 && batch <= 100_000)) {
        throw new TeamAdminError('--batch is a number of rows from 1 to 100000.');
      }
      const progress = { ...(batch ? { batch } : {}) };
      if (command === 'reseal') {
        io.out(resealedText(await resealWithKeyFile(client, path.resolve(keyFile), progress)));
        return;
      }
      const rotation = await rotateTeamKey(client, {
        keyFile: path.resolve(keyFile),
        reseal: !!values.reseal,
        ...progress,
      });
      io.out(
        `${rotation.rotated ? `The team key was rotated: ${rotation.rewrapped} wrapped keys re-wrapped` : 'An interrupted rotation was finished'}; ` +
          `the new key is in ${keyFile} (the old one no longer opens the store's keys).\n` +
          'Desks holding the old key say so: each reviewer needs a new join code (join-code NAME).\n' +
          (rotation.resealed
            ? resealedText(rotation.resealed)
            : 'Run reseal (or rotate-key --reseal next time) so that copies of the store taken from now on cannot be opened with the old key.\n'),
      );
      if (values['join-codes']) await freshCodesForEveryone(client, command, values, admin, io);
      return;
    }
    case 'status':
      io.out(formatTeamStatus(await teamStatus(client)));
      return;
    case 'verify-audit': {
      const keyFile = values['key-file'];
      if (!keyFile) {
        throw new TeamAdminError(
          'verify-audit needs --key-file FILE: the seals are what the database owner cannot forge.',
        );
      }
      const holds = values.head ? parseChainPoint(values.head) : undefined;
      io.out(storeVerdictText(await verifyStoreAudit(client, { keyFile, ...(holds ? { holds } : {}) })));
      return;
    }
    case 'migrate': {
      const { from, to } = await migrateTeam(client, values['key-file']);
      io.out(
        from === to
          ? `The team store is already at schema version ${to}; the reviewers' grants were re-applied.\n`
          : `The team store was migrated from schema version ${from} to ${to}; the reviewers' grants were re-applied.\n`,
      );
      return;
    }
  }
}

/** `add-hub NAME` (a new login, marked as a hub) and `mark-hub NAME` (a hub added with add-reviewer). */
async function runHubCommand(
  command: 'add-hub' | 'mark-hub',
  name: string,
  values: Values,
  admin: AdminUrl,
  client: pg.Client,
  io: TeamCliIo,
): Promise<void> {
  if (command === 'add-hub') {
    const options = reviewerOptions(command, name, values, admin);
    if (options.sslmode === 'disable') io.err(NO_TLS_WARNING);
    const hub = await addHub(client, options);
    io.out(
      `Hub ${name} added (${whereDesksGo(hub.connection)}); it is never listed among the reviewers.\n\n` +
        `JOIN CODE for the hub ${name} (npm run hub -- join, on the hub's machine; it holds the team key: keep it private):\n` +
        `${hub.joinCode}\n\n` +
        `ONE-TIME PASSWORD for the hub ${name} (npm run hub -- join asks for it after the code; it is not shown again):\n` +
        `${hub.password}\n`,
    );
    return;
  }
  const keyFile = values['key-file'];
  if (!keyFile) {
    throw new TeamAdminError(
      'mark-hub needs --key-file FILE (the file init wrote): the change is sealed into the audit chain.',
    );
  }
  io.out(
    (await markHub(client, name, keyFile))
      ? `${name} is now marked as a hub: it is no longer listed among the reviewers, offered a case or made a lead. Its join code and password are unchanged.\n`
      : `${name} is already marked as a hub; nothing changed.\n`,
  );
}

const ROTATION_ADVISED = (name: string) =>
  `\nA rotation of the team key is advised: ${name}'s desk (and their join code) holds the current team key, ` +
  'which opens any copy of the store they come across (a backup, a dump). To make it worthless:\n' +
  '  npm run team -- rotate-key --database URL --key-file FILE --reseal\n' +
  'then give each remaining reviewer a new join code (join-code NAME).\n';

const resealedText = ({ values, retiredKeys }: { values: number; retiredKeys: number }) =>
  `Every sealed value is under the current data key (${values} resealed now); ${retiredKeys} old data keys deleted.\n`;

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
/** After a rotation: a fresh join code, carrying the new key, for every login of the team (reviewers, hubs). */
async function freshCodesForEveryone(
  client: pg.Client,
  command: string,
  values: Values,
  admin: AdminUrl,
  io: TeamCliIo,
): Promise<void> {
  const { rows } = await client.query<{ login: string }>(
    'SELECT login FROM vetted.team_reviewers() UNION ALL SELECT login FROM vetted.team_hubs() ORDER BY 1',
  );
  for (const { login } of rows) {
    const { joinCode } = await reviewerJoinCode(client, reviewerOptions(command, login, values, admin));
    io.out(
      `\nJOIN CODE for ${login} (one use within ${JOIN_CODE_DAYS} days; hand it over privately):\n${joinCode}\n`,
    );
  }
}

function reviewerOptions(command: string, name: string, values: Values, admin: AdminUrl): AddReviewerOptions {
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
