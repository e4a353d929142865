// The nemesis's store (#37): a primary with a synchronous streaming standby, on two node addresses that stay
// put while the roles move between them. The `failover` fault kills the primary with -9 and promotes the
// standby; healing it builds a new standby from the new primary on the dead node's port, so whatever lists
// the two nodes (the join codes, the desks' proxies, the hubs) finds the store again, and a later failover
// can happen again in a long soak. The run's own reads go to whichever node accepts writes (the product's
// writable-node socket, as desks and hubs reach it).
import pg from 'pg';
import type { StoreNode } from '#main/team/store/store-nodes.ts';
import { writableNode, writableSocket } from '#main/team/store/writable-node.ts';
import { type PgCluster, startPgCluster } from '../postgres/pg-cluster.ts';
import { waitFor } from '../wait-for.ts';

const STANDBY = 'nemesis_standby';

export interface NemesisStore {
  /** The two nodes, in the order the join codes list them. */
  readonly nodes: readonly StoreNode[];
  /** The node accepting writes now (a killed one until the standby is promoted). */
  primary(): PgCluster;
  /** The streaming standby; null from a failover until it is healed. */
  standby(): PgCluster | null;
  /** The team's database on the primary of the moment, as its superuser. */
  primaryUrl(): string;
  /** The team's database as its superuser, on whichever node accepts writes when a connection opens. */
  adminConfig(): pg.ClientConfig;
  /** The team's database on the standby (its administrator's), null while there is none. */
  standbyConfig(): pg.ClientConfig | null;
  /** kill -9 of the primary, as when its machine dies; then no node accepts writes until `promote`. */
  killPrimary(): Promise<void>;
  /**
   * `pg_ctl promote` of the standby, which becomes the primary, alone: synchronous replication waits for
   * nobody until its new standby streams (`rebuildStandby`).
   */
  promote(): Promise<void>;
  /** A new synchronous standby copied from the primary, on the dead node's port. */
  rebuildStandby(): Promise<void>;
  close(): Promise<void>;
}

/** A primary and its synchronous standby; `database` made on the primary (the standby streams it). */
export async function startNemesisStore(prefix: string): Promise<NemesisStore> {
  const first = await startPgCluster();
  let standby: PgCluster | null = null;
  try {
    standby = await first.startStandby(STANDBY);
    const database = new URL(await first.createDatabase(prefix)).pathname.slice(1);
    return nemesisStore(first, standby, database);
  } catch (error) {
    await standby?.stop();
    await first.stop();
    throw error;
  }
}

function nemesisStore(first: PgCluster, firstStandby: PgCluster, database: string): NemesisStore {
  let primary = first;
  let standby: PgCluster | null = firstStandby;
  let dead: PgCluster | null = null;
  const nodes = [first, firstStandby].map((node) => ({ host: node.host, port: node.port }));
  const configOf = (node: PgCluster): pg.ClientConfig => ({ connectionString: node.url(database) });
  const probeWritable = async ({ port }: StoreNode) => {
    const url = new URL(first.url(database));
    url.port = String(port);
    const probe = new pg.Client({ connectionString: url.toString() });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      const { rows } = await probe.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
      return rows[0]?.recovery === false;
    } finally {
      await probe.end().catch(() => undefined);
    }
  };
  /**
   * Each call asks the nodes afresh: a writable node is kept only until a connection to it fails, and a
   * client made for the final reads held no connection through the last failover, whose dead node is a
   * standby again by then on the same port.
   */
  const stream = () =>
    writableSocket(writableNode(nodes, probeWritable)) as unknown as NonNullable<pg.ClientConfig['stream']>;
  return {
    nodes,
    primary: () => primary,
    standby: () => standby,
    primaryUrl: () => primary.url(database),
    adminConfig: () => ({ ...configOf(first), stream: stream() }),
    standbyConfig: () => (standby ? configOf(standby) : null),
    async killPrimary() {
      await primary.kill();
      dead = primary;
    },
    async promote() {
      if (!standby || !dead) throw new Error('No standby to promote, or the primary is alive.');
      await standby.promote();
      primary = standby;
      standby = null;
      // Non-strict synchronous mode (as Patroni's): the promoted node waits for no standby until its new one
      // streams, else every commit would hang until the heal. A commit acknowledged meanwhile lives on this
      // node alone; the schedule injects no other fault until the heal has made the new standby synchronous.
      await onPrimary(primary, ['ALTER SYSTEM RESET synchronous_standby_names', 'SELECT pg_reload_conf()']);
    },
    async rebuildStandby() {
      if (!dead) return;
      const port = dead.port;
      await dead.stop();
      // startStandby makes the copy synchronous (synchronous_standby_names on the primary) once it streams.
      standby = await primary.startStandby(STANDBY, { port });
      dead = null;
    },
    async close() {
      await standby?.stop().catch(() => undefined);
      await dead?.stop().catch(() => undefined);
      await primary.stop();
    },
  };
}

async function onPrimary(primary: PgCluster, statements: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: primary.url() });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Waits (bounded) until the standby has replayed everything the primary has written. */
export async function standbyCaughtUp(store: NemesisStore, timeoutMs: number): Promise<void> {
  const standby = store.standbyConfig();
  if (!standby) return;
  const lsn = async (config: pg.ClientConfig, sql: string) => {
    const client = new pg.Client(config);
    await client.connect();
    try {
      return (await client.query<{ lsn: string }>(sql)).rows[0]!.lsn;
    } finally {
      await client.end();
    }
  };
  const target = await lsn(store.adminConfig(), 'SELECT pg_current_wal_lsn()::text AS lsn');
  await waitFor(
    async () => {
      const replayed = await lsn(
        standby,
        `SELECT (pg_last_wal_replay_lsn() >= '${target}'::pg_lsn)::text AS lsn`,
      );
      return replayed === 'true';
    },
    'the standby to replay what the primary wrote',
    timeoutMs,
  );
}
