// `npm run team -- <command>`: the administrator's tasks (scripts/team.ts runs this). Output goes to `io`, so
// tests read what an administrator would see. Every failure is one sentence on stderr and exit code 1.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { type AdminUrl, adminErrorText, connectAdmin, parseAdminUrl } from './admin-connection.ts';
import { TEAM_HELP } from './cli-help.ts';
import { TeamAdminError } from './errors.ts';
import { initTeam, migrateTeam } from './init.ts';
import {
  type AddReviewerOptions,
  addReviewer,
  removeReviewer,
  resetReviewerPassword,
  reviewerJoinCode,
} from './reviewers.ts';
import { parseRole, setReviewerRole } from './roles.ts';
import { formatTeamStatus, teamStatus } from './status.ts';

export interface TeamCliIo {
  out(text: string): void;
  err(text: string): void;
}

const OPTIONS = {
  database: { type: 'string' },
  'key-file': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  sslmode: { type: 'string' },
  ca: { type: 'string' },
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
      const reviewer = await addReviewer(client, options);
      const sslmode = options.sslmode;
      const where = `${reviewer.connection.host}:${reviewer.connection.port}/${reviewer.connection.database}`;
      io.out(
        `Reviewer ${name} added (${where}, sslmode ${sslmode}).\n\n` +
          `JOIN CODE for ${name} (Settings → Team → Join; it holds the team key: hand it over privately):\n` +
          `${reviewer.joinCode}\n\n` +
          `ONE-TIME PASSWORD for ${name} (hand it over by another channel than the join code; it is not shown again):\n` +
          `${reviewer.password}\n`,
      );
      return;
    }
    case 'join-code': {
      const name = oneName(command, rest);
      const { joinCode, connection } = await reviewerJoinCode(
        client,
        reviewerOptions(command, name, values, admin),
      );
      io.out(
        `The join code of ${name} again (${connection.host}:${connection.port}/${connection.database}, sslmode ${connection.sslmode}); nothing in the store changed.\n\n` +
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
          `Their audit rows and notes stay.\n${removed.sessionsLeft ? `${removed.sessionsLeft}\n` : ''}`,
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
      const { from, to } = await setReviewerRole(client, name, parseRole(role));
      io.out(
        from === to
          ? `${name} is already a ${to}; nothing changed.\n`
          : `${name} is now a ${to} (was a ${from}). ${to === 'lead' ? LEAD_CAN : REVIEWER_CANNOT}\n`,
      );
      return;
    }
    case 'status':
      io.out(formatTeamStatus(await teamStatus(client)));
      return;
    case 'migrate': {
      const { from, to } = await migrateTeam(client);
      io.out(
        from === to
          ? `The team store is already at schema version ${to}; the reviewers' grants were re-applied.\n`
          : `The team store was migrated from schema version ${from} to ${to}; the reviewers' grants were re-applied.\n`,
      );
      return;
    }
  }
}

/** What a join code tells desks (add-reviewer, join-code), defaulting to how the administrator reached the store. */
function reviewerOptions(command: string, name: string, values: Values, admin: AdminUrl): AddReviewerOptions {
  const keyFile = values['key-file'];
  if (!keyFile) throw new TeamAdminError(`${command} needs --key-file FILE (the file init wrote).`);
  const sslmode =
    values.sslmode ?? (values.ca || admin.sslmode === 'verify-full' ? 'verify-full' : 'disable');
  if (sslmode !== 'verify-full' && sslmode !== 'disable') {
    throw new TeamAdminError('--sslmode is verify-full or disable.');
  }
  if (values.ca && sslmode === 'disable') throw new TeamAdminError('--ca needs --sslmode verify-full.');
  // Desks verify the server with the CA the administrator's own connection trusts, unless told otherwise.
  const ca = values.ca ?? (sslmode === 'verify-full' ? admin.sslrootcert : undefined);
  const port = values.port ? Number(values.port) : admin.target.port;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new TeamAdminError('--port is a port number.');
  return {
    name,
    keyFile,
    host: values.host ?? admin.target.host,
    port,
    sslmode,
    ...(ca ? { caFile: ca } : {}),
  };
}
