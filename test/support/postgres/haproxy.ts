// HAProxy in front of a team store's nodes (a primary and its standby), as teams run it: Debian's haproxy in
// TCP mode on a loopback port, sending every connection to the node that accepts writes. HAProxy's own
// pgsql-check only sees that a node answers, which a standby does too; so, as Patroni's REST API does, each
// node has a tiny HTTP check server next to it (`startWritableCheck`) answering 200 only while its node says
// `pg_is_in_recovery() = false`, and HAProxy asks it (`option httpchk`, `check port`). Chosen over
// `option external-check` because that forks a script per check (and needs `insecure-fork-wanted`), while
// an HTTP check is what HAProxy and every failover manager already speak. A node marked down has its
// sessions cut (`on-marked-down shutdown-sessions`), so no client stays on a demoted node.
// No vitest here: the failover bench uses it too.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port.ts';
import { waitFor } from '../wait-for.ts';

export const HAPROXY = process.env.VETTED_HAPROXY ?? '/usr/sbin/haproxy';

/** Why the HAProxy tests skip here, or undefined; on CI (CI set) a missing haproxy is an error. */
export function haproxyMissing(): string | undefined {
  if (fs.existsSync(HAPROXY)) return undefined;
  const why = `HAProxy is not installed (${HAPROXY}): apt-get install -y haproxy to run these tests.`;
  if (process.env.CI) throw new Error(why);
  return why;
}

export interface WritableCheck {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The check server of one node: GET / answers 200 while `nodeUrl`'s server accepts writes, 503 while it is
 * in recovery (a standby) or cannot be reached. Each check is one short connection, bounded by `timeoutMs`.
 */
export async function startWritableCheck(nodeUrl: string, timeoutMs = 1_000): Promise<WritableCheck> {
  const writable = async (): Promise<boolean> => {
    const client = new pg.Client({
      connectionString: nodeUrl,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      application_name: 'vetted-writable-check',
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
      return rows[0]?.recovery === false;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const server = http.createServer((_request, response) => {
    void writable().then((yes) => {
      response.writeHead(yes ? 200 : 503, { 'content-type': 'text/plain' });
      response.end(yes ? 'primary\n' : 'not writable\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface HaproxyFront {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The indexes (in `nodes`' order) of the nodes HAProxy sends connections to now (its stats: UP). */
  upNodes(): Promise<number[]>;
  stop(): Promise<void>;
}

export interface StoreNodeOf {
  port: number;
  /** The superuser URL the node's check server asks. */
  url: string;
}

/** `checkMs`: how often HAProxy asks each node's check server; two failures mark a node down, one success up. */
export async function startHaproxy(nodes: readonly StoreNodeOf[], checkMs = 250): Promise<HaproxyFront> {
  const missing = haproxyMissing();
  if (missing) throw new Error(missing);
  const checks = await Promise.all(nodes.map((node) => startWritableCheck(node.url)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-haproxy-'));
  const port = await freePort();
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    config,
    [
      'global',
      '  maxconn 400',
      `  stats socket ${path.join(dir, 'admin.sock')}`,
      'defaults',
      '  mode tcp',
      '  timeout connect 2s',
      // A team's sessions stay open for hours (LISTEN, the hub's lock): HAProxy must not cut idle ones.
      '  timeout client 24h',
      '  timeout server 24h',
      '  timeout check 2s',
      'frontend store',
      `  bind 127.0.0.1:${port}`,
      '  default_backend nodes',
      'backend nodes',
      '  option httpchk GET /',
      '  http-check expect status 200',
      `  default-server inter ${checkMs} fall 2 rise 1 on-marked-down shutdown-sessions`,
      ...nodes.map(
        (node, index) => `  server node${index} 127.0.0.1:${node.port} check port ${checks[index]!.port}`,
      ),
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const upNodes = async () => {
    const csv = await askSocket(path.join(dir, 'admin.sock'), 'show stat\n');
    return csv
      .split('\n')
      .map((line) => line.split(','))
      .filter((row) => row[0] === 'nodes' && /^node\d+$/.test(row[1] ?? '') && row[17]?.startsWith('UP'))
      .map((row) => Number(row[1]!.slice(4)));
  };
  try {
    await listening(port, child, () => stderr);
    // HAProxy starts its servers as up: only once the standby's check has failed does it send to one node.
    await waitFor(
      async () => (await upNodes()).length === 1,
      'haproxy to settle on one writable node',
      15_000,
      20,
    );
  } catch (error) {
    child.kill('SIGKILL');
    await Promise.all(checks.map((check) => check.close()));
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    upNodes,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await Promise.all(checks.map((check) => check.close()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function listening(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${stderr()}`);
      return accepts();
    },
    `haproxy to listen on 127.0.0.1:${port} (${stderr()})`,
    15_000,
    20,
  );
}

function askSocket(file: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(file, () => socket.write(command));
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}
