// Real hub processes on a fresh team store, the sandbox delivering to them through one front (the team's
// tunnel or load balancer): what the hub's failover and lost-connection tests start from.
import pg from 'pg';
import type { ServiceClient } from '#main/data/service/index.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';
import { quickClient } from '../desk/drafts.ts';
import { type FrontRelay, startFrontRelay } from '../network/front-relay.ts';
import { freshDatabase } from '../postgres/team-db.ts';
import { type HubFleet, startHubFleet } from './hub-fleet.ts';

export interface HubRig {
  sandbox: RunningSandbox;
  client: ServiceClient;
  front: FrontRelay;
  fleet: HubFleet;
  /** The store's administrator. */
  db: pg.Client;
  close(): Promise<void>;
}

export async function startHubRig(hubs: number): Promise<HubRig> {
  const sandbox = await startSandbox({ port: 0 });
  const client = quickClient(sandbox);
  const adminUrl = await freshDatabase();
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();
  // The front's URL is the hubs' --public-url: it starts first, and learns their ports after.
  const backends: number[] = [];
  const front = await startFrontRelay(backends);
  const fleet = await startHubFleet(adminUrl, {
    hubs,
    service: sandbox,
    publicUrl: front.url,
    retrySeconds: 0.2,
  });
  backends.push(...fleet.ports);
  return {
    sandbox,
    client,
    front,
    fleet,
    db,
    async close() {
      await fleet.close();
      await front.close();
      await db.end();
      await client.close();
      await sandbox.close();
    },
  };
}
