#!/usr/bin/env node
// `npm run hub -- <command>` / `npx vetted-hub <command>`: the team's headless hub (main/team/hub/cli.ts).
import { hubRoles } from '#main/compose/hub.ts';
import { hubProcess } from '#main/team/hub/process.ts';

await hubProcess(hubRoles);
