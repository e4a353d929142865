// The desk's (and the hub's) connection pool to the team store. TLS follows the join code: verify-full checks
// the server's certificate against the team's CA (or this computer's CAs) and the host name; disable is for a
// database on this machine or a private network only.
import net from 'node:net';
import tls from 'node:tls';
import pg from 'pg';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { isTeamKey } from '../team-key.ts';
import { type Checkout, checkout } from './checkout.ts';
import { type ConnectionTarget, TeamConnectionError, teamConnectionError } from './connection-error.ts';
import { checkTeamSchema } from './migrations/index.ts';
import { TeamSchemaError } from './migrations/runner.ts';
import {
  endWhenQuiet,
  endWhenStuckInTransaction,
  IN_TRANSACTION_BOUND_MS,
  KEEPALIVE_DELAY_MS,
  QUERY_BOUND_MS,
  QUERY_TIMEOUT_WORDS,
} from './silence.ts';
import { storeNodes } from './store-nodes.ts';
import { waitingPool } from './waiting-pool.ts';
import { socketNode, writableNode, writableSocket } from './writable-node.ts';

export { TeamConnectionError } from './connection-error.ts';

export interface TeamPoolOptions {
  max?: number;
  applicationName?: string;
  /** How long a new connection may take before it counts as unreachable. */
  connectTimeoutMs?: number;
  /**
   * How long a caller waits for a connection while all `max` are busy: by default the statement deadline
   * (`queryTimeoutMs`), the longest a healthy statement ahead of it may take. A burst of work waits its turn;
   * only a pool stuck on a silent network makes it fail, in words.
   */
  waitMs?: number;
  /** How long one statement may take before its connection counts as dead (silence.ts QUERY_BOUND_MS). */
  queryTimeoutMs?: number;
  /**
   * For a pool of sessions of our own on the server itself (not a pooler): the server ends a session idle
   * for longer than this (silence.ts `endWhenQuiet`). Its user must speak within it (a heartbeat).
   */
  endWhenQuietMs?: number;
  /** The server ends a session of this pool left idle inside a transaction this long (silence.ts). */
  inTransactionBoundMs?: number;
  /** An idle connection was dropped (server restart, network): the pool replaces it on next use. */
  onIdleError?: (error: TeamConnectionError) => void;
  /**
   * Runs on each new connection before the pool hands it out (pg-pool's `verify`); its failure fails that
   * connect and the connection is discarded. A desk started while the store was away reads its keys here.
   */
  onNewConnection?: (client: pg.PoolClient) => Promise<void>;
}

/** node-postgres' TLS settings for a team connection; false for sslmode disable. */
export function teamTls(connection: TeamConnection): false | tls.ConnectionOptions {
  if (connection.sslmode === 'disable') return false;
  return {
    rejectUnauthorized: true,
    ...(connection.ca ? { ca: connection.ca } : {}),
    // SNI carries host names only (an IP address there is refused by Node).
    ...(net.isIP(connection.host) === 0 ? { servername: connection.host } : {}),
    // Checked against the host the desk asked for, whatever the socket resolved it to.
    checkServerIdentity: (_host, cert) => tls.checkServerIdentity(connection.host, cert),
  };
}

/**
 * Where a connection that needs its own session goes (LISTEN, a session's advisory lock): the connection's
 * `direct` address when it names one (its `host:port` is then a pooler in transaction mode, which hands each
 * transaction a different server session), else the same address.
 */
export function directConnection(connection: TeamConnection): TeamConnection {
  const { direct, standbys, ...pooled } = connection;
  if (direct) return { ...pooled, host: direct.host, port: direct.port };
  return standbys ? { ...pooled, standbys } : pooled;
}

/**
 * Settings for one connection to the team store, TLS included, made exactly as the pool makes its own. A
 * dedicated `pg.Client` that needs a session of its own takes `directConnection(connection)`.
 */
export function teamClientConfig(
  connection: TeamConnection,
  password: string,
  options: Pick<TeamPoolOptions, 'applicationName' | 'connectTimeoutMs' | 'queryTimeoutMs'> = {},
): pg.ClientConfig {
  const single = {
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password,
    ssl: teamTls(connection),
    application_name: options.applicationName ?? 'vetted',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // A silent network never errors a statement: it ends at its deadline instead of waiting for ever.
    query_timeout: options.queryTimeoutMs ?? QUERY_BOUND_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
  return connection.standbys ? { ...single, stream: writableStream(connection, single) } : single;
}

/**
 * The pool's client class: one whose statement passed its deadline ends itself. That statement is still out
 * on a connection that may be dead, and node-postgres would otherwise take the client back into the pool and
 * queue the next statement behind it; ended, the pool drops it and the next one connects afresh. `silent`
 * hears of it: the pool's idle connections most likely went the same way.
 */
function deadlineClient(silent: () => void): typeof pg.Client {
  return class DeadlineClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: node-postgres' query has many overloads; all are passed on as they are.
    override query(...args: any[]): any {
      const callback: unknown = args.at(-1);
      // The pool's own `pool.query` passes a callback; a caller awaiting the client gets a promise.
      if (typeof callback === 'function') {
        args[args.length - 1] = (error: unknown, result: unknown) => {
          this.#afterFailure(error);
          callback(error, result);
        };
      }
      const result: unknown = Reflect.apply(pg.Client.prototype.query, this, args);
      if (result instanceof Promise) result.catch((error: unknown) => this.#afterFailure(error));
      return result;
    }

    #afterFailure(error: unknown) {
      if (!(error instanceof Error && error.message === QUERY_TIMEOUT_WORDS)) return;
      this.end().catch(() => undefined);
      silent();
    }
  };
}

/**
 * The pool's idle clients, and what drops them all: each gets its socket destroyed with an error, and the
 * pool, as for any idle connection that fails, removes it and reports it (`onIdleError`). After one statement
 * met a silent network, the next ones connect afresh instead of each waiting out its own deadline on a
 * connection opened before the silence.
 */
function idleClients(pool: pg.Pool): () => void {
  const idle = new Set<pg.Client>();
  pool.on('release', (error, client) => {
    if (!error) idle.add(client as pg.Client);
  });
  pool.on('acquire', (client) => idle.delete(client as pg.Client));
  pool.on('remove', (client) => idle.delete(client as pg.Client));
  return () => {
    for (const client of idle) client.connection.stream.destroy(new Error(QUERY_TIMEOUT_WORDS));
    idle.clear();
  };
}

/**
 * With standbys: every connection made with these settings goes to the node that accepts writes now
 * (writable-node.ts), asked with a probe connection of the same login and TLS to one node at a time.
 */
function writableStream(
  connection: TeamConnection,
  single: pg.ClientConfig,
): NonNullable<pg.ClientConfig['stream']> {
  const { standbys: _, ...one } = connection;
  const node = writableNode(storeNodes(connection), async ({ host, port }) => {
    const probe = new pg.Client({
      ...single,
      host,
      port,
      ssl: teamTls({ ...one, host, port }),
      application_name: `${single.application_name}-probe`,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      const { rows } = await probe.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
      return rows[0]?.transaction_read_only === 'off';
    } finally {
      await probe.end().catch(() => undefined);
    }
  });
  const socket = writableSocket(node);
  // pg passes its connection's settings, ssl included, and reads `ssl` back after making the socket: the
  // certificate is checked against the name of the node this socket reached, not the first host's.
  return ((config: { ssl?: tls.ConnectionOptions | false }) => {
    const made = socket();
    if (config.ssl) {
      config.ssl = {
        ...config.ssl,
        checkServerIdentity: (_host, cert) =>
          tls.checkServerIdentity(socketNode(made)?.host ?? connection.host, cert),
      };
    }
    return made;
  }) as unknown as NonNullable<pg.ClientConfig['stream']>;
}

/**
 * A pool of connections to the team store (no connection is made until first used). An idle connection the
 * server or the network drops reports an error on the pool: it goes to `onIdleError`, never left to crash
 * the process.
 */
export function openTeamPool(
  connection: TeamConnection,
  password: string,
  options: TeamPoolOptions = {},
): pg.Pool {
  const config = teamClientConfig(connection, password, options);
  let dropIdle: () => void = () => undefined;
  const max = options.max ?? 10;
  const waitMs = options.waitMs ?? options.queryTimeoutMs ?? QUERY_BOUND_MS;
  const busy = () =>
    new TeamConnectionError(
      'server',
      `All ${max} of this computer's connections to the team store at ${connection.host}:${connection.port} stayed busy for ${Math.round(waitMs / 100) / 10} s: try again in a moment.`,
    );
  const Pool = waitingPool({ waitMs, busy });
  const pool = new Pool({
    ...config,
    Client: deadlineClient(() => dropIdle()),
    max,
    idleTimeoutMillis: 30_000,
    ...(options.onNewConnection ? { verify: newConnectionCheck(options.onNewConnection) } : {}),
  });
  dropIdle = idleClients(pool);
  // What the server is told of each new session, in one round trip queued before anything the client is
  // handed out for: end it when stuck in a transaction, and (sessions of our own) when quiet. One implicit
  // transaction: a server before 14 (README asks for 15) refuses idle_session_timeout and both stay unset.
  const sets = [endWhenStuckInTransaction(options.inTransactionBoundMs ?? IN_TRANSACTION_BOUND_MS)];
  if (options.endWhenQuietMs) sets.push(endWhenQuiet(options.endWhenQuietMs));
  const told = sets.join('; ');
  pool.on('connect', (client) => {
    // A connection lost while checked out (a failover mid-query) is also an 'error' on its client, which the
    // pool listens to only while the client idles: without this, an error event with no listener ends the
    // process. The query in flight, or the next one, fails and says so; the pool replaces the client.
    client.on('error', () => undefined);
    client.query(told).catch(() => undefined);
  });
  pool.on('error', (error) => options.onIdleError?.(teamConnectionError(error, connection, [password])));
  return pool;
}

/** pg-pool's `verify` for `check`: the client has no listener of the pool's while it is verified. */
function newConnectionCheck(check: (client: pg.PoolClient) => Promise<void>) {
  return (client: pg.PoolClient, done: (error?: Error) => void) => {
    // The statement under way fails with a lost connection, and `done(error)` discards the client.
    const hear = () => undefined;
    client.on('error', hear);
    check(client).then(
      () => {
        client.off('error', hear);
        done();
      },
      (error: Error) => {
        client.off('error', hear);
        done(error);
      },
    );
  };
}

/**
 * One client of the pool (its lost connection heard while out: checkout.ts), its connection failure as a
 * TeamConnectionError (in words, without the password).
 */
export async function connectTeamClient(pool: pg.Pool): Promise<Checkout> {
  try {
    return await checkout(pool);
  } catch (error) {
    throw poolConnectionError(pool, error);
  }
}

/** Where a pool connects (its settings, or the URL it was given), and the password never to repeat. */
export function poolTarget(pool: pg.Pool): { target: ConnectionTarget; secrets: string[] } {
  const options = pool.options as pg.PoolConfig;
  const url = options.connectionString ? new URL(options.connectionString) : undefined;
  const password = options.password ?? (url && decodeURIComponent(url.password));
  return {
    target: {
      host: String(options.host ?? url?.hostname ?? ''),
      port: Number(options.port ?? (url?.port || 5432)),
      database: String(options.database ?? url?.pathname.slice(1) ?? ''),
      user: String(options.user ?? (url ? decodeURIComponent(url.username) : '')),
    },
    secrets: typeof password === 'string' && password ? [password] : [],
  };
}

function poolConnectionError(pool: pg.Pool, error: unknown): TeamConnectionError {
  const { target, secrets } = poolTarget(pool);
  return teamConnectionError(error, target, secrets);
}

export async function checkTeamStore(pool: pg.Pool, teamKey: Buffer): Promise<void> {
  const out = await connectTeamClient(pool);
  const { client } = out;
  try {
    await checkTeamSchema(client);
    const { rows } = await client.query<{ key_check: string }>('SELECT key_check FROM vetted.team_meta');
    const check = rows[0]?.key_check;
    if (!check) {
      throw new TeamConnectionError(
        'database',
        'This team store was never initialised: run `npm run team -- init`.',
      );
    }
    if (!isTeamKey(teamKey, check)) {
      throw new TeamConnectionError('auth', "This join code's team key does not match this team store.");
    }
  } catch (error) {
    if (error instanceof TeamSchemaError || error instanceof TeamConnectionError) throw error;
    throw poolConnectionError(pool, error);
  } finally {
    out.release();
  }
}
