// One team for a whole test file: a team rig (test/support/team/team-rig.ts) and alice's and bob's desks on it,
// started before the first test (`leads` made leads first, as the administrator's set-role does) and closed
// after the last.
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { setReviewerRole } from '#admin/roles.ts';
import type { SandboxProfile } from '#sandbox/index.ts';
import { type DeskHarness, startDesk } from '#test/support/desk/desk-harness.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { startTeamRig, type TeamRig } from '#test/support/team/team-rig.ts';

export interface TeamSuite {
  readonly rig: TeamRig;
  readonly alice: DeskHarness;
  readonly bob: DeskHarness;
}

/**
 * Call at the top of a test file (or of a describe block, for a team of its own); read its fields inside
 * hooks and tests only. `profile`: the sandbox's behaviour profile (default the interface document's).
 */
export function teamSuite({
  leads = [],
  profile,
  clocks = {},
}: {
  leads?: readonly ('alice' | 'bob')[];
  profile?: SandboxProfile;
  /** A desk's own clock, for desks whose clocks disagree (the system's by default). */
  clocks?: Partial<Record<'alice' | 'bob', () => Date>>;
} = {}): TeamSuite {
  const suite = {} as { rig: TeamRig; alice: DeskHarness; bob: DeskHarness };
  beforeAll(async () => {
    suite.rig = await startTeamRig(await freshDatabase(), { profile });
    const admin = new pg.Client({ connectionString: suite.rig.adminUrl });
    await admin.connect();
    try {
      for (const who of leads) {
        const name = suite.rig.reviewers[who].login;
        await setReviewerRole(admin, { name, role: 'lead', keyFile: suite.rig.keyFile });
      }
    } finally {
      await admin.end();
    }
    const clockOf = (who: 'alice' | 'bob') => (clocks[who] ? { clock: clocks[who] } : {});
    suite.alice = await startDesk(await suite.rig.deskDir('alice'), undefined, clockOf('alice'));
    suite.bob = await startDesk(await suite.rig.deskDir('bob'), undefined, clockOf('bob'));
  }, 60_000);
  afterAll(async () => {
    await suite.alice?.close();
    await suite.bob?.close();
    await suite.rig?.close();
  });
  return suite;
}
