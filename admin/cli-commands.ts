// One function per command of `npm run team` that needs the database: what it does and what the administrator reads.
import path from 'node:path';
import type pg from 'pg';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { nodesText, storeNodes } from '#main/team/store/store-nodes.ts';
import type { AdminUrl } from './admin-connection.ts';
import { NO_TLS_WARNING, reviewerOptions, type Values } from './cli-options.ts';
import { TeamAdminError } from './errors.ts';
import { addHub, markHub } from './hubs.ts';
import { initTeam, migrateTeam } from './init.ts';
import {
  addReviewer,
  JOIN_CODE_DAYS,
  removeReviewer,
  resetReviewerPassword,
  reviewerJoinCode,
} from './reviewers.ts';
import { parseRole, setReviewerRole } from './roles.ts';
import { resealWithKeyFile, rotateTeamKey } from './rotate-key.ts';
import { formatTeamStatus, teamStatus } from './status.ts';
import { parseChainPoint, storeVerdictText, verifyStoreAudit } from './verify-audit.ts';

export interface TeamCliIo {
  out(text: string): void;
  err(text: string): void;
}

/** What every command is given: its name and positionals, the options, the administrator's connection. */
export interface CommandContext {
  command: string;
  rest: string[];
  values: Values;
  admin: AdminUrl;
  client: pg.Client;
  io: TeamCliIo;
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

/** The join-code options for NAME, with the warning on stderr when they go without TLS. */
function joinCodeOptions({ command, values, admin, io }: CommandContext, name: string) {
  const options = reviewerOptions(command, name, values, admin);
  if (options.sslmode === 'disable') io.err(NO_TLS_WARNING);
  return options;
}

function requiredKeyFile({ command, values }: CommandContext, why = ''): string {
  const keyFile = values['key-file'];
  if (!keyFile) throw new TeamAdminError(`${command} needs --key-file FILE${why}`);
  return keyFile;
}

const SEALED_IN_AUDIT = ' (the file init wrote): the change is sealed into the audit chain.';

async function init({ values, admin, client, io }: CommandContext): Promise<void> {
  const keyFile = path.resolve(values['key-file'] ?? `${admin.target.database}.team-key`);
  const result = await initTeam(client, { keyFile });
  io.out(
    `The team store is ready: team ${result.teamId}, schema version ${result.schema}, reviewers' group role ${result.reviewerRole}.\n` +
      `The team key is in ${keyFile} (readable by you only). Keep it safe and backed up apart from the database:\n` +
      'you need it to add reviewers (add-reviewer --key-file), and without it the team data cannot be read.\n',
  );
}

async function addReviewerCommand(context: CommandContext): Promise<void> {
  const name = oneName(context.command, context.rest);
  const reviewer = await addReviewer(context.client, joinCodeOptions(context, name));
  context.io.out(
    `Reviewer ${name} added (${whereDesksGo(reviewer.connection)}).\n\n` +
      `JOIN CODE for ${name} (Settings → Team → Join; it holds the team key: hand it over privately):\n` +
      `${reviewer.joinCode}\n\n` +
      `ONE-TIME PASSWORD for ${name} (hand it over by another channel than the join code; it is not shown again):\n` +
      `${reviewer.password}\n`,
  );
}

/** `add-hub NAME`: a new login, marked as a hub. */
async function addHubCommand(context: CommandContext): Promise<void> {
  const name = oneName(context.command, context.rest);
  const hub = await addHub(context.client, joinCodeOptions(context, name));
  context.io.out(
    `Hub ${name} added (${whereDesksGo(hub.connection)}); it is never listed among the reviewers.\n\n` +
      `JOIN CODE for the hub ${name} (npm run hub -- join, on the hub's machine; it holds the team key: keep it private):\n` +
      `${hub.joinCode}\n\n` +
      `ONE-TIME PASSWORD for the hub ${name} (npm run hub -- join asks for it after the code; it is not shown again):\n` +
      `${hub.password}\n`,
  );
}

/** `mark-hub NAME`: a hub added with add-reviewer. */
async function markHubCommand(context: CommandContext): Promise<void> {
  const name = oneName(context.command, context.rest);
  const keyFile = requiredKeyFile(context, SEALED_IN_AUDIT);
  context.io.out(
    (await markHub(context.client, name, keyFile))
      ? `${name} is now marked as a hub: it is no longer listed among the reviewers, offered a case or made a lead. Its join code and password are unchanged.\n`
      : `${name} is already marked as a hub; nothing changed.\n`,
  );
}

async function joinCodeCommand(context: CommandContext): Promise<void> {
  const name = oneName(context.command, context.rest);
  const { joinCode, connection } = await reviewerJoinCode(context.client, joinCodeOptions(context, name));
  context.io.out(
    `A fresh join code for ${name} (${whereDesksGo(connection)}), for one use within ${JOIN_CODE_DAYS} days; their older unused codes no longer work.\n\n` +
      `JOIN CODE for ${name} (Settings → Team → Join; it holds the team key: hand it over privately):\n` +
      `${joinCode}\n`,
  );
}

const ROTATION_ADVISED = (name: string) =>
  `\nA rotation of the team key is advised: ${name}'s desk (and their join code) holds the current team key, ` +
  'which opens any copy of the store they come across (a backup, a dump). To make it worthless:\n' +
  '  npm run team -- rotate-key --database URL --key-file FILE --reseal\n' +
  'then give each remaining reviewer a new join code (join-code NAME).\n';

async function removeReviewerCommand({ command, rest, client, io }: CommandContext): Promise<void> {
  const name = oneName(command, rest);
  const removed = await removeReviewer(client, name);
  io.out(
    `${name} can no longer log in to the team store; ${removed.sessionsEnded} open session(s) ended. ` +
      `Their audit rows and notes stay.\n${removed.sessionsLeft ? `${removed.sessionsLeft}\n` : ''}` +
      (removed.rotationAdvised ? ROTATION_ADVISED(name) : ''),
  );
}

async function resetPassword({ command, rest, client, io }: CommandContext): Promise<void> {
  const name = oneName(command, rest);
  const reset = await resetReviewerPassword(client, name);
  io.out(
    `${name} has a new password; ${reset.sessionsEnded} open session(s) with the old one ended. ` +
      'Their join code is unchanged:\non their desk, Settings → Team → New password… takes this password.\n' +
      `${reset.sessionsLeft ? `${reset.sessionsLeft}\n` : ''}\n` +
      `ONE-TIME PASSWORD for ${name} (hand it over by another channel than the join code; it is not shown again):\n` +
      `${reset.password}\n`,
  );
}

async function setRole(context: CommandContext): Promise<void> {
  const { rest, client, io } = context;
  if (rest.length !== 2) throw new TeamAdminError('set-role takes NAME and a role: lead or reviewer.');
  const [name = '', role] = rest;
  const keyFile = requiredKeyFile(context, SEALED_IN_AUDIT);
  const { from, to } = await setReviewerRole(client, { name, role: parseRole(role), keyFile });
  io.out(
    from === to
      ? `${name} is already a ${to}; nothing changed.\n`
      : `${name} is now a ${to} (was a ${from}). ${to === 'lead' ? LEAD_CAN : REVIEWER_CANNOT}\n`,
  );
}

const resealedText = ({ values, retiredKeys }: { values: number; retiredKeys: number }) =>
  `Every sealed value is under the current data key (${values} resealed now); ${retiredKeys} old data keys deleted.\n`;

/** --batch: how many rows a rotation or a reseal rewrites per transaction, when the administrator says. */
function batchProgress(values: Values): { batch?: number } {
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  if (batch !== undefined && !(Number.isInteger(batch) && batch > 0 && batch <= 100_000)) {
    throw new TeamAdminError('--batch is a number of rows from 1 to 100000.');
  }
  return { ...(batch ? { batch } : {}) };
}

async function reseal(context: CommandContext): Promise<void> {
  const keyFile = requiredKeyFile(context, ' (the file init wrote).');
  const progress = batchProgress(context.values);
  context.io.out(resealedText(await resealWithKeyFile(context.client, path.resolve(keyFile), progress)));
}

async function rotateKey(context: CommandContext): Promise<void> {
  const { values, client, io } = context;
  const keyFile = requiredKeyFile(context, ' (the file init wrote).');
  const progress = batchProgress(values);
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
  if (values['join-codes']) await freshCodesForEveryone(context);
}

/** After a rotation: a fresh join code, carrying the new key, for every login of the team (reviewers, hubs). */
async function freshCodesForEveryone({ command, values, admin, client, io }: CommandContext): Promise<void> {
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

async function status({ client, io }: CommandContext): Promise<void> {
  io.out(formatTeamStatus(await teamStatus(client)));
}

async function verifyAudit(context: CommandContext): Promise<void> {
  const keyFile = requiredKeyFile(context, ': the seals are what the database owner cannot forge.');
  const holds = context.values.head ? parseChainPoint(context.values.head) : undefined;
  context.io.out(
    storeVerdictText(await verifyStoreAudit(context.client, { keyFile, ...(holds ? { holds } : {}) })),
  );
}

async function migrate({ values, client, io }: CommandContext): Promise<void> {
  const { from, to } = await migrateTeam(client, values['key-file']);
  io.out(
    from === to
      ? `The team store is already at schema version ${to}; the reviewers' grants were re-applied.\n`
      : `The team store was migrated from schema version ${from} to ${to}; the reviewers' grants were re-applied.\n`,
  );
}

/** The commands that work on the team store, by name (verify-audit --file alone is answered before, offline). */
export const COMMANDS: Readonly<Record<string, (context: CommandContext) => Promise<void>>> = {
  init,
  'add-reviewer': addReviewerCommand,
  'add-hub': addHubCommand,
  'mark-hub': markHubCommand,
  'join-code': joinCodeCommand,
  'remove-reviewer': removeReviewerCommand,
  'reset-password': resetPassword,
  'set-role': setRole,
  'rotate-key': rotateKey,
  reseal,
  status,
  'verify-audit': verifyAudit,
  migrate,
};
