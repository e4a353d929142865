// A team for an end-to-end spec: a throwaway PostgreSQL cluster, the team rig (a hub, alice and bob), and alice
// made a lead as the administrator's set-role does. Registers the spec's beforeAll/afterAll.
import pg from 'pg';
import { setReviewerRole } from '#admin/roles.ts';
import { type PgCluster, startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import { startTeamRig, type TeamRig } from '#test/support/team/team-rig.ts';
import { test } from '../fixtures.ts';

export function teamWithALead(database: string): { readonly rig: TeamRig } {
  let cluster: PgCluster | undefined;
  let rig: TeamRig | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cluster = await startPgCluster();
    rig = await startTeamRig(await cluster.createDatabase(database));
    const admin = new pg.Client({ connectionString: rig.adminUrl });
    await admin.connect();
    try {
      await setReviewerRole(admin, { name: rig.reviewers.alice.login, role: 'lead', keyFile: rig.keyFile });
    } finally {
      await admin.end();
    }
  });
  test.afterAll(async () => {
    await rig?.close();
    await cluster?.stop();
  });
  return {
    get rig() {
      if (!rig) throw new Error('the team starts in beforeAll');
      return rig;
    },
  };
}
