// A team store that can fail over, as a team runs one: a primary with a synchronous streaming standby
// (pg-cluster.ts), reached either through HAProxy with a check that finds the writable node (haproxy.ts), or
// directly with every node listed (libpq's host=a,b, target_session_attrs=read-write). The primary is
// killed with -9 and the standby promoted by the caller. No vitest here: the failover bench uses it too.
import type { StoreNode } from '#main/team/store/store-nodes.ts';
import type { TeamReach } from '../team/team-admin.ts';
import { type HaproxyFront, startHaproxy } from './haproxy.ts';
import { type PgCluster, startPgCluster } from './pg-cluster.ts';

export type FailoverSetUp = 'haproxy' | 'multi-host';

export interface FailoverStore {
  readonly setUp: FailoverSetUp;
  readonly primary: PgCluster;
  readonly standby: PgCluster;
  /** The team's database on the primary, as its superuser (the administrator). */
  readonly adminUrl: string;
  /** The same database on the standby (the primary once promoted). */
  readonly standbyUrl: string;
  /** Where desks and hubs reach it: HAProxy's port, or both nodes (the standby first: a read-only node to skip). */
  readonly reach: TeamReach;
  /** Both nodes in the order the join codes list them (multi-host), or HAProxy's address. */
  readonly nodes: readonly StoreNode[];
  readonly front: HaproxyFront | undefined;
  close(): Promise<void>;
}

export async function startFailoverStore(setUp: FailoverSetUp): Promise<FailoverStore> {
  const primary = await startPgCluster();
  let standby: PgCluster | undefined;
  let front: HaproxyFront | undefined;
  try {
    standby = await primary.startStandby();
    const adminUrl = await primary.createDatabase('failover');
    const standbyUrl = new URL(adminUrl);
    standbyUrl.port = String(standby.port);
    const both = [primary, standby];
    front =
      setUp === 'haproxy'
        ? await startHaproxy(both.map((node) => ({ port: node.port, url: node.url() })))
        : undefined;
    const nodes = front
      ? [{ host: front.host, port: front.port }]
      : [standby, primary].map((node) => ({ host: node.host, port: node.port }));
    const running = { primary, standby, front };
    return {
      setUp,
      primary,
      standby,
      adminUrl,
      standbyUrl: standbyUrl.toString(),
      reach: { nodes },
      nodes,
      front,
      async close() {
        await running.front?.stop();
        await running.standby.stop();
        await running.primary.stop();
      },
    };
  } catch (error) {
    await front?.stop();
    await standby?.stop();
    await primary.stop();
    throw error;
  }
}
