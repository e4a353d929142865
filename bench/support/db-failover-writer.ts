// The load of bench/db-failover.ts, in a process of its own: a desk's and a hub's team-store pools, made by
// the code desks and hubs use (openTeamPool with the connection their join code gave them), each writing
// once every `everyMs` (`SELECT txid_current()`: it needs a node that accepts writes, and any login may).
// It prints one JSON line each time a pool's writes start failing and each time they succeed again:
// {"who":"desk","ok":false,"at":…}. It ends when its standard input closes.
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { openTeamPool } from '#main/team/store/pool.ts';

export interface WriterJob {
  everyMs: number;
  pools: { who: string; connection: TeamConnection; password: string }[];
}

const now = () => performance.timeOrigin + performance.now();
const job = JSON.parse(process.argv[2] ?? '{}') as WriterJob;
let running = true;
process.stdin.resume();
process.stdin.on('end', () => {
  running = false;
});

async function write({ who, connection, password }: WriterJob['pools'][number]): Promise<void> {
  const pool = openTeamPool(connection, password, {
    applicationName: `vetted-bench-${who}`,
    connectTimeoutMs: 2_000,
    onIdleError: () => undefined,
  });
  let ok: boolean | undefined;
  while (running) {
    const started = now();
    let succeeded: boolean;
    try {
      await pool.query({ text: 'SELECT txid_current()', query_timeout: 2_000 } as never);
      succeeded = true;
    } catch {
      succeeded = false;
    }
    if (succeeded !== ok) {
      ok = succeeded;
      process.stdout.write(`${JSON.stringify({ who, ok, at: now() })}\n`);
    }
    const wait = job.everyMs - (now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await pool.end().catch(() => undefined);
}

await Promise.all(job.pools.map(write));
process.exit(0);
