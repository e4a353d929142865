// `npm run team -- <command> --database URL`: the team store administrator's tasks (admin/cli.ts).
import { runTeamCli } from '#admin/cli.ts';

process.exitCode = await runTeamCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
