// A throwaway PostgreSQL cluster for team mode's tests: Debian's PostgreSQL 15 binaries, a temporary data
// directory, a loopback port and a socket directory of its own, stopped (and deleted) after the run.
// initdb and pg_ctl refuse to run as root: as root (CI) they run as the `postgres` user via runuser.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../free-port.ts';
import { waitFor } from '../wait-for.ts';

const run = promisify(execFile);
const BIN = process.env.VETTED_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

export interface PgCluster {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The superuser's URL for a database (default `postgres`): password authentication over TCP. */
  url(database?: string): string;
  /** The cluster's data directory (its postmaster.pid names the server's process: benches read its CPU). */
  readonly dataDir: string;
  /** Creates an empty database owned by the superuser; returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /**
   * A synchronous streaming standby of this cluster (same superuser and password), started; on `port` when
   * given (a failed node's, so whatever lists the nodes finds it there again), a free one otherwise.
   */
  startStandby(name?: string, options?: { port?: number }): Promise<PgCluster>;
  /** kill -9 of the server and its processes (a crash): stop() then only removes its files. */
  kill(): Promise<void>;
  /** A standby's `pg_ctl promote`: returns once it accepts writes. */
  promote(): Promise<void>;
  /**
   * `pg_ctl restart -m immediate`: every session cut at once, no checkpoint (a crash), the server back on the
   * same port with the same options once it has recovered.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export const SUPERUSER = 'postgres';

async function pgTool(tool: string, args: string[]): Promise<void> {
  const command = asRoot ? 'runuser' : path.join(BIN, tool);
  const argv = asRoot ? ['-u', 'postgres', '--', path.join(BIN, tool), ...args] : args;
  await run(command, argv, { timeout: 60_000 });
}

/** Replaces a file of the cluster's, keeping it the cluster user's (pg_hba.conf). */
async function writeAs(file: string, text: string): Promise<void> {
  fs.writeFileSync(file, text);
  if (asRoot) await run('chown', ['postgres:postgres', file]);
}

export function havePostgres(): boolean {
  return fs.existsSync(path.join(BIN, 'initdb'));
}

export interface PgClusterOptions {
  /** Turns TLS on (ssl=on) with this certificate and key (PEM files; copied into the cluster's directory). */
  ssl?: { certFile: string; keyFile: string };
  /** With `ssl`: TCP connections without TLS are refused (pg_hba.conf hostssl only), as managed services do. */
  requireTls?: boolean;
  /** Commits wait for the disk, as on a real server (benches); tests leave it off, for speed. */
  fsync?: boolean;
  /** Default 200: a bench of many desks sets more, to measure how many it opens rather than be refused. */
  maxConnections?: number;
  /**
   * Server settings given at start (`-c name=value`), e.g. `shared_preload_libraries: 'pg_stat_statements'`
   * for a bench that lists the statements a workload runs.
   */
  settings?: Record<string, string>;
}

/** Starts a new cluster (about a second): scram-sha-256 over TCP on 127.0.0.1, nothing else reachable. */
export async function startPgCluster(clusterOptions: PgClusterOptions = {}): Promise<PgCluster> {
  if (!havePostgres()) {
    throw new Error(`PostgreSQL 15 is not installed (${BIN}): apt-get install -y postgresql`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-pg-'));
  const data = path.join(dir, 'data');
  const password = crypto.randomBytes(18).toString('base64url');
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  let sslOptions = '';
  if (clusterOptions.ssl) {
    // PostgreSQL refuses a key file others can read; the copies belong to the cluster's user (chown below).
    fs.copyFileSync(clusterOptions.ssl.certFile, path.join(dir, 'server.crt'));
    fs.copyFileSync(clusterOptions.ssl.keyFile, path.join(dir, 'server.key'));
    fs.chmodSync(path.join(dir, 'server.key'), 0o600);
    sslOptions = ` -c ssl=on -c ssl_cert_file=${dir}/server.crt -c ssl_key_file=${dir}/server.key`;
  }
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir]);
  await pgTool('initdb', [
    '-D',
    data,
    '-U',
    SUPERUSER,
    '--pwfile',
    pwfile,
    '--auth-local=scram-sha-256',
    '--auth-host=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  fs.rmSync(pwfile);
  if (clusterOptions.requireTls) {
    // Written as the cluster's user (runuser as root): the file must stay theirs.
    const hba = [
      'local all all scram-sha-256',
      'hostssl all all 127.0.0.1/32 scram-sha-256',
      'hostnossl all all 127.0.0.1/32 reject',
    ];
    await writeAs(path.join(data, 'pg_hba.conf'), `${hba.join('\n')}\n`);
  }
  const port = await startServer(dir, data, clusterOptions, sslOptions);
  return clusterOf(dir, data, port, password);
}

/**
 * pg_ctl start on `fixedPort`, or on a free port (another process may take the probed port first: up to
 * three tries).
 */
async function startServer(
  dir: string,
  data: string,
  clusterOptions: PgClusterOptions,
  more = '',
  fixedPort?: number,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    const settings = Object.entries(clusterOptions.settings ?? {})
      .map(([name, value]) => ` -c ${name}=${value}`)
      .join('');
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=${clusterOptions.fsync ? 'on' : 'off'} -c max_connections=${clusterOptions.maxConnections ?? 200}${settings}${more}`;
    try {
      await pgTool('pg_ctl', [
        '-D',
        data,
        '-o',
        options,
        '-l',
        path.join(dir, 'log'),
        '-w',
        '-t',
        '60',
        'start',
      ]);
      return port;
    } catch (error) {
      if (attempt >= 3 || fixedPort !== undefined) throw error;
    }
  }
}

function clusterOf(dir: string, data: string, port: number, password: string): PgCluster {
  const url = (database = 'postgres') =>
    `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  let databases = 0;
  let killed = false;
  return {
    host: '127.0.0.1',
    port,
    url,
    dataDir: data,
    async createDatabase(prefix = 'vetted') {
      const name = `${prefix}_${process.pid}_${++databases}_${crypto.randomBytes(3).toString('hex')}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async startStandby(name = 'standby', options = {}) {
      return startStandbyOf({ port, password }, name, options.port);
    },
    async kill() {
      killed = true;
      await killServer(data);
    },
    async promote() {
      await pgTool('pg_ctl', ['-D', data, '-w', '-t', '60', 'promote']);
    },
    async restart() {
      await pgTool('pg_ctl', [
        '-D',
        data,
        '-m',
        'immediate',
        '-l',
        path.join(dir, 'log'),
        '-w',
        '-t',
        '60',
        'restart',
      ]);
    },
    async stop() {
      try {
        if (!killed) await pgTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A streaming standby of the cluster at `primary.port` (pg_basebackup -R: standby.signal and its
 * primary_conninfo, `application_name` = `name`), started and streaming. The primary makes it synchronous
 * (`synchronous_standby_names`) and waits until it is: from then on a commit returns only once the standby
 * has it, so whatever was acknowledged survives a promotion.
 */
async function startStandbyOf(
  primary: { port: number; password: string },
  name: string,
  fixedPort?: number,
): Promise<PgCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-pg-standby-'));
  const data = path.join(dir, 'data');
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir]);
  const conninfo = `host=127.0.0.1 port=${primary.port} user=${SUPERUSER} password=${primary.password} application_name=${name}`;
  // A fast checkpoint: a spread one may keep the copy waiting for minutes on a busy primary.
  await pgTool('pg_basebackup', [
    '-d',
    conninfo,
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '--no-sync',
  ]);
  // (wal_retrieve_retry_interval stays 5 s: at 200 ms, store-failover.test.ts's desks never felt the primary
  // killed, in both set-ups, for 150 s; not understood yet.)
  const port = await startServer(dir, data, {}, '', fixedPort);
  const standby = clusterOf(dir, data, port, primary.password);
  const admin = new pg.Client({
    connectionString: `postgres://${SUPERUSER}:${encodeURIComponent(primary.password)}@127.0.0.1:${primary.port}/postgres`,
  });
  await admin.connect();
  try {
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = '${name}'`);
    await admin.query('SELECT pg_reload_conf()');
    await waitFor(
      async () =>
        (
          await admin.query(
            `SELECT 1 FROM pg_stat_replication WHERE application_name = $1 AND state = 'streaming' AND sync_state = 'sync'`,
            [name],
          )
        ).rows.length > 0,
      `the standby ${name} to become synchronous`,
      30_000,
      50,
    );
  } finally {
    await admin.end();
  }
  return standby;
}

/** kill -9 of the postmaster and of every process it started, as when its machine dies. */
async function killServer(data: string): Promise<void> {
  const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // Stopped first, so that it forks no backend between the listing of its children and their kill: one
  // forked then for a connecting desk would live on, orphaned, serving that desk from a dead node.
  process.kill(pid, 'SIGSTOP');
  const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]);
  const children = stdout
    .split('\n')
    .map(Number)
    .filter((child) => child > 0);
  for (const target of [pid, ...children]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  // Gone once the postmaster's /proc entry is (it may stay a zombie of no one's until reaped: not ours).
  await waitFor(
    () => !fs.existsSync(`/proc/${pid}`) || isZombie(pid),
    `PostgreSQL ${pid} to die`,
    10_000,
    20,
  );
}

function isZombie(pid: number): boolean {
  try {
    return / Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^\d+ \(.*?\)/, ''));
  } catch {
    return true;
  }
}
