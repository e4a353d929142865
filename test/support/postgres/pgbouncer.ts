// PgBouncer in transaction mode in front of the run's throwaway cluster, as teams run it: Debian's pgbouncer
// on a loopback port of its own, pooling per login and database. Logins are checked with auth_query against
// the cluster (its superuser as auth_user, the only line of the userlist), so a reviewer added after the
// start logs in through it with their own password, and the server sees their own login (session_user).
// pgbouncer refuses to run as root: as root (CI) it runs as the `postgres` user (-u), like the cluster.
// No vitest here: benches may use it too.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../free-port.ts';

export const PGBOUNCER = process.env.VETTED_PGBOUNCER ?? '/usr/sbin/pgbouncer';
const asRoot = process.getuid?.() === 0;
const run = promisify(execFile);

export function havePgBouncer(): boolean {
  return fs.existsSync(PGBOUNCER);
}

/**
 * Why the PgBouncer tests skip on this machine, or undefined when they run. On CI (CI set) a missing
 * pgbouncer is an error, not a skip: .ci/run installs it.
 */
export function pgBouncerMissing(): string | undefined {
  if (havePgBouncer()) return undefined;
  const why = `PgBouncer is not installed (${PGBOUNCER}): apt-get install -y pgbouncer to run these tests.`;
  if (process.env.CI) throw new Error(why);
  return why;
}

export interface PgBouncer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** Backend pids of the server connections it holds now (SHOW SERVERS on its admin console). */
  serverPids(): Promise<number[]>;
  /** The logins of the clients connected to it now (SHOW CLIENTS). */
  clientUsers(): Promise<string[]>;
  /** Killed (SIGKILL, as a crash) and started again on the same port; resolves once it accepts connections. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** `adminUrl`: the cluster's superuser URL (pg-cluster.ts). */
export async function startPgBouncer(adminUrl: string): Promise<PgBouncer> {
  if (!havePgBouncer()) throw new Error(pgBouncerMissing());
  const server = new URL(adminUrl);
  const superuser = decodeURIComponent(server.username);
  const superPassword = decodeURIComponent(server.password);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-pgbouncer-'));
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${superuser}" "${superPassword}"\n`, { mode: 0o600 });
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      // Every database of the cluster, under its own name, as the same login the client gave.
      `* = host=${server.hostname} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'pool_mode = transaction',
      'auth_type = scram-sha-256',
      `auth_file = ${dir}/userlist.txt`,
      `auth_user = ${superuser}`,
      `admin_users = ${superuser}`,
      'max_client_conn = 500',
      'default_pool_size = 10',
      `logfile = ${dir}/pgbouncer.log`,
      `pidfile = ${dir}/pgbouncer.pid`,
      '',
    ].join('\n'),
  );
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir]);

  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: 'ignore' });
    child = started;
    const exited = new Promise<never>((_, reject) =>
      started.once('exit', (code) => reject(new Error(`pgbouncer exited (${code}): ${logTail(dir)}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([accepting(port), exited]);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await gone;
  };
  const adminConsole = async <T>(command: string): Promise<T[]> => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: superuser,
      password: superPassword,
      database: 'pgbouncer',
    });
    await client.connect();
    try {
      // The admin console speaks the simple protocol only (a query without parameters).
      return (await client.query(command)).rows as T[];
    } finally {
      await client.end();
    }
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    async serverPids() {
      const rows = await adminConsole<{ remote_pid: number | string }>('SHOW SERVERS');
      return rows.map((row) => Number(row.remote_pid));
    },
    async clientUsers() {
      const rows = await adminConsole<{ user: string; database: string }>('SHOW CLIENTS');
      return rows.filter((row) => row.database !== 'pgbouncer').map((row) => row.user);
    },
    async restart() {
      await kill();
      await start();
    },
    async stop() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `port` on 127.0.0.1 accepts a connection (checked every 20 ms, for at most 15 s). */
async function accepting(port: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on 127.0.0.1:${port} within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function logTail(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return 'no log';
  }
}
