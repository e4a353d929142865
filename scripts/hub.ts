#!/usr/bin/env node
// `npm run hub -- <command>` / `npx vetted-hub <command>`: the team's headless hub (main/hub/cli.ts).
import { hubCli } from '../main/hub/cli.ts';

const stopped = new Promise((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});

process.exitCode = await hubCli(process.argv.slice(2), {
  stdin: process.stdin,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stopped,
});
// Standard input and the signal listeners would keep a finished one-shot command alive.
process.exit();
