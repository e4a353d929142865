// `npm run team -- <command>`: the administrator's tasks (scripts/team.ts runs this). Output goes to `io`, so
// tests read what an administrator would see. Every failure is one sentence on stderr and exit code 1.
import { parseArgs } from 'node:util';
import { type AdminUrl, adminErrorText, connectAdmin, parseAdminUrl } from './admin-connection.ts';
import { COMMANDS, type TeamCliIo } from './cli-commands.ts';
import { TEAM_HELP } from './cli-help.ts';
import { OPTIONS } from './cli-options.ts';
import { TeamAdminError } from './errors.ts';
import { exportVerdictText, verifyExportFile } from './verify-audit.ts';

export type { TeamCliIo } from './cli-commands.ts';
export { NO_TLS_WARNING } from './cli-options.ts';

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
      if (Object.hasOwn(COMMANDS, command))
        await COMMANDS[command]!({ command, rest, values, admin, client, io });
    } finally {
      await client.end().catch(() => undefined);
    }
    return 0;
  } catch (error) {
    io.err(`${adminErrorText(error, admin)}\n`);
    return 1;
  }
}
