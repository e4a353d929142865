/** Starts the team bench's load generator (team-load.ts) in a process of its own and runs its schedule. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Outcome } from './signed-deliveries.ts';
import type { TeamLoadSummary } from './team-load.ts';
import type { TeamLoadJob } from './team-load-plan.ts';

export interface TeamLoadRun {
  /** Sends the schedule; resolves once every delivery is acknowledged (or given up), with the outcomes. */
  go(): Promise<TeamLoadSummary & { outcomes: Outcome[] }>;
}

export async function startTeamLoad(job: TeamLoadJob): Promise<TeamLoadRun> {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'team-load.ts'), JSON.stringify(job)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  await new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return {
    async go() {
      child.stdin.write('go\n');
      const line = await lines.next();
      if (line.done) throw new Error(`the load generator ended without its summary (exit ${child.exitCode})`);
      const summary = JSON.parse(line.value) as TeamLoadSummary;
      const outcomes = JSON.parse(readFileSync(job.outcomesFile, 'utf8')) as Outcome[];
      return { ...summary, outcomes };
    },
  };
}
