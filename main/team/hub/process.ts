// The hub as a process: standard streams, SIGTERM/SIGINT to stop (the listener stops and the role's lock
// is released before the process exits), the exit status of the command, and the last net for faults.
import { guardProcess } from '#main/ground/log/process-guard.ts';
import { type HubRolesFactory, hubCli } from './cli.ts';

export async function hubProcess(roles?: HubRolesFactory): Promise<never> {
  const status = await hubCli(
    process.argv.slice(2),
    {
      stdin: process.stdin,
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      untilStopped: () =>
        new Promise((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        }),
      // A fault nothing caught is logged and counted, and the hub keeps its listener (process-guard.ts).
      guard: (log) => guardProcess({ log }),
    },
    roles,
  );
  // Standard input would keep a finished command alive.
  process.exit(status);
}
