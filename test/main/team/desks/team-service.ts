// For a team test file: the team's sandbox as someone other than the desks (makes customers, reads how many
// requests reached it) and the team store as its administrator. Opened after the suite's rig, closed after
// the file's last test.
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createServiceClient, HAL_MEDIA_TYPE, type ServiceClient } from '#main/data/service/index.ts';
import type { TeamSuite } from './team-suite.ts';

export interface TeamOutside {
  admin: pg.Client;
  service: ServiceClient;
  /** How many requests of `route` (e.g. "POST /customers/{id}") the sandbox received, from anyone. */
  requests(route: string): Promise<number>;
}

/** Call at the top of a test file, after teamSuite; read its fields inside hooks and tests only. */
export function teamOutside(suite: Pick<TeamSuite, 'rig'>): TeamOutside {
  const outside = {} as TeamOutside;
  beforeAll(async () => {
    const { rig } = suite;
    outside.admin = new pg.Client({ connectionString: rig.adminUrl });
    await outside.admin.connect();
    outside.service = createServiceClient({
      baseUrl: rig.sandbox.baseUrl,
      clientId: rig.sandbox.clientId,
      clientSecret: rig.sandbox.clientSecret,
    });
    outside.requests = (route) => sandboxRequests(rig.sandbox, outside.service, route);
  });
  afterAll(async () => {
    await outside.admin?.end();
    await outside.service?.close();
  });
  return outside;
}

/** How many requests of `route` the sandbox received, from anyone (its stats, read as `service`). */
export async function sandboxRequests(
  sandbox: { baseUrl: string },
  service: ServiceClient,
  route: string,
): Promise<number> {
  const answer = await fetch(`${sandbox.baseUrl}/sandbox/stats`, {
    headers: { accept: HAL_MEDIA_TYPE, authorization: `Bearer ${await service.token.get()}` },
  });
  const stats = (await answer.json()) as { requests: Record<string, Record<string, number>> };
  return Object.values(stats.requests[route] ?? {}).reduce((sum, n) => sum + n, 0);
}
