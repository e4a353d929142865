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
import { freePort } from './free-port.ts';

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
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=${clusterOptions.fsync ? 'on' : 'off'} -c max_connections=${clusterOptions.maxConnections ?? 200}${sslOptions}`;
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
      break;
    } catch (error) {
      // Another process took the port between our probe and the start: try another.
      if (attempt >= 3) throw error;
    }
  }
  const url = (database = 'postgres') =>
    `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  let databases = 0;
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
        await pgTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
