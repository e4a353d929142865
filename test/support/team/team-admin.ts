// A team made the way its administrator makes one (`team init`, then `add-reviewer` for each login, through
// the admin module), and a hub's data directory joined with its code and pointed at a service, through the
// hub's own commands. No vitest here: the e2e specs and the benches use it too.
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { addHub } from '#admin/hubs.ts';
import { initTeam } from '#admin/init.ts';
import { addReviewer, type NewReviewer } from '#admin/reviewers.ts';
import type { Logger } from '#main/ground/log/logger.ts';
import { joinCommand, serviceCommand } from '#main/team/hub/commands.ts';
import { type HubConfig, openHubConfig } from '#main/team/hub/hub-config.ts';
import { type StoreNode, withNodes } from '#main/team/store/store-nodes.ts';

/** Where desks and hubs reach the store: a pooler in front of it (sessions of their own go to the server). */
export interface TeamReach {
  pooler?: { host: string; port: number };
  /**
   * Where desks and hubs reach the store instead of --database's host:port: a proxy in front of its nodes
   * (one), or every node of a store with a standby (several: they keep to whichever accepts writes).
   */
  nodes?: readonly StoreNode[];
}

export type TeamLogin = NewReviewer & { login: string };

export interface MadeTeam<N extends string> {
  teamId: string;
  keyFile: string;
  /** Each name's PostgreSQL login (the name with a random suffix: roles are cluster-wide) and secrets. */
  reviewers: Record<N, TeamLogin>;
}

/** `team init` on the database at `adminUrl` (its key file in `keyDir`), then a login for each name. */
export async function makeTeam<N extends string>(
  adminUrl: string,
  keyDir: string,
  names: readonly N[],
  { pooler, nodes }: TeamReach = {},
): Promise<MadeTeam<N>> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const keyFile = path.join(keyDir, 'team.key');
    const { teamId } = await initTeam(admin, { keyFile });
    const { hostname, port } = new URL(adminUrl);
    const suffix = crypto.randomBytes(4).toString('hex');
    const reviewers = {} as Record<N, TeamLogin>;
    for (const name of names) {
      const login = `${name}_${suffix}`;
      // The hubs' logins as an administrator adds them: marked as hubs, never listed among the reviewers.
      const add = name.startsWith('hub') ? addHub : addReviewer;
      const made = await add(admin, {
        name: login,
        keyFile,
        ...(nodes
          ? withNodes(nodes)
          : { host: pooler?.host ?? hostname, port: pooler?.port ?? Number(port) }),
        sslmode: 'disable',
        ...(pooler ? { direct: { host: hostname, port: Number(port) } } : {}),
      });
      reviewers[name] = { ...made, login };
    }
    return { teamId, keyFile, reviewers };
  } finally {
    await admin.end();
  }
}

/** The account a hub works with on the service (a sandbox's, in tests and benches). */
export interface ServiceAccount {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** `npm run hub -- join` and `service --base-url …` on `dir`, as an administrator sets a hub up. */
export async function joinedHubConfig(
  dir: string,
  hub: NewReviewer,
  service: ServiceAccount,
  log: Logger,
): Promise<HubConfig> {
  const config = openHubConfig(dir, log);
  await joinCommand(config, { code: hub.joinCode, password: hub.password }, log);
  serviceCommand(
    config,
    { sandbox: false, baseUrl: service.baseUrl, clientId: service.clientId },
    service.clientSecret,
  );
  return config;
}
