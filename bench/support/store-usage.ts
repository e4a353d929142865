/**
 * What the team store's PostgreSQL spends, read from outside it:
 * - connections: pg_stat_activity every `everyMs`, the peak of the team's client connections to its database
 *   and the peak per login and per application name (`vetted-desk`, `vetted-replica-listener`…);
 * - CPU: the cluster's processes' user + system time from /proc (the postmaster, every backend and background
 *   process; a backend that ended has its time in the postmaster's reaped-children figures), and, per role
 *   (desk or hub, by login, and application name; background processes by type), the time of the
 *   processes alive at both ends of a span.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime, stime, cutime, cstime of a process, in seconds; null once it is gone. */
function procTimes(pid: number): { self: number; children: number; ppid: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { ppid: field(4), self: (field(14) + field(15)) / TICKS, children: (field(16) + field(17)) / TICKS };
}

/** A process's own CPU seconds and its reaped children's (0 once it is gone). */
export function processCpuSeconds(pid: number): number {
  const times = procTimes(pid);
  return times ? times.self + times.children : 0;
}

/** The CPU seconds of the cluster whose postmaster is `postmaster`, all its processes, alive or reaped. */
export function clusterCpuSeconds(postmaster: number): number {
  const server = procTimes(postmaster);
  if (!server) throw new Error(`PostgreSQL's postmaster (${postmaster}) is gone`);
  let total = server.self + server.children;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = procTimes(Number(entry));
    if (times?.ppid === postmaster) total += times.self + times.children;
  }
  return total;
}

export function postmasterPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Each server process's role and CPU seconds now. */
async function roleSnapshot(db: pg.ClientBase): Promise<Map<number, { role: string; cpu: number }>> {
  const { rows } = await db.query<{
    pid: number;
    usename: string | null;
    application_name: string;
    backend_type: string;
    mine: boolean;
  }>(
    `SELECT pid, usename, application_name, backend_type, pid = pg_backend_pid() AS mine FROM pg_stat_activity`,
  );
  const snapshot = new Map<number, { role: string; cpu: number }>();
  for (const row of rows) {
    const times = procTimes(row.pid);
    if (!times) continue;
    const role =
      row.backend_type !== 'client backend'
        ? row.backend_type
        : row.mine
          ? 'the bench (this sampler)'
          : `${row.usename?.startsWith('hub_') ? 'hub' : 'desk'} ${row.application_name || '(unnamed)'}`;
    snapshot.set(row.pid, { role, cpu: times.self });
  }
  return snapshot;
}

export interface CpuSpan {
  /** The whole cluster's CPU seconds over the span. */
  total: number;
  /** Per role, the CPU of its processes alive at the span's end (since the span's start, or their own). */
  byRole: Map<string, number>;
  seconds: number;
}

export interface StoreUsage {
  /** Starts a span of CPU accounting; its `end` gives what the cluster spent meanwhile. */
  span(): Promise<{ end(): Promise<CpuSpan> }>;
  /** Peak client connections to the team's database, in all and per login, per application name. */
  peaks(): { total: number; byLogin: Map<string, number>; byApplication: Map<string, number> };
  close(): Promise<void>;
}

/**
 * `team(login)`: whether a login is the team's (a desk's or a hub's): the total counts only theirs, not the
 * bench's own connections (its administrator and seeder).
 */
export async function watchStore(
  databaseUrl: string,
  dataDir: string,
  team: (login: string) => boolean,
  everyMs = 250,
): Promise<StoreUsage> {
  const postmaster = postmasterPid(dataDir);
  const db = new pg.Client({ connectionString: databaseUrl, application_name: 'vetted-bench' });
  await db.connect();
  let total = 0;
  const byLogin = new Map<string, number>();
  const byApplication = new Map<string, number>();
  const peak = (map: Map<string, number>, key: string, value: number) =>
    map.set(key, Math.max(map.get(key) ?? 0, value));
  const sample = async () => {
    const { rows } = await db.query<{ usename: string; application_name: string; n: number }>(
      `SELECT usename, application_name, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
        GROUP BY 1, 2`,
    );
    total = Math.max(
      total,
      rows.reduce((sum, row) => sum + (team(row.usename) ? row.n : 0), 0),
    );
    const logins = new Map<string, number>();
    const applications = new Map<string, number>();
    for (const row of rows) {
      logins.set(row.usename, (logins.get(row.usename) ?? 0) + row.n);
      applications.set(row.application_name, (applications.get(row.application_name) ?? 0) + row.n);
    }
    for (const [login, n] of logins) peak(byLogin, login, n);
    for (const [application, n] of applications) peak(byApplication, application, n);
  };
  let stopped = false;
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(sample).catch(() => undefined);
  }, everyMs);
  return {
    async span() {
      const startedAt = performance.now();
      const cpuAtStart = clusterCpuSeconds(postmaster);
      const rolesAtStart = await roleSnapshot(db);
      return {
        async end() {
          const rolesAtEnd = await roleSnapshot(db);
          const byRole = new Map<string, number>();
          for (const [pid, { role, cpu }] of rolesAtEnd) {
            const before = rolesAtStart.get(pid);
            byRole.set(role, (byRole.get(role) ?? 0) + cpu - (before?.role === role ? before.cpu : 0));
          }
          return {
            total: clusterCpuSeconds(postmaster) - cpuAtStart,
            byRole,
            seconds: (performance.now() - startedAt) / 1000,
          };
        },
      };
    },
    peaks: () => ({ total, byLogin, byApplication }),
    async close() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await sampling;
      await db.end();
    },
  };
}
