// One team for a whole test file: a team rig (test/support/team-rig.ts) and alice's and bob's desks on it,
// started before the first test (after `prepare`, which may change the team first) and closed after the last.
import { afterAll, beforeAll } from 'vitest';
import { freshDatabase } from '../support/team-db.ts';
import { startTeamRig, type TeamRig } from '../support/team-rig.ts';
import { type DeskHarness, startDesk } from './desk-harness.ts';

export interface TeamSuite {
  readonly rig: TeamRig;
  readonly alice: DeskHarness;
  readonly bob: DeskHarness;
}

/** Call at the top of a test file; read its fields inside hooks and tests only. */
export function teamSuite(prepare?: (rig: TeamRig) => Promise<void>): TeamSuite {
  const suite = {} as { rig: TeamRig; alice: DeskHarness; bob: DeskHarness };
  beforeAll(async () => {
    suite.rig = await startTeamRig(await freshDatabase());
    await prepare?.(suite.rig);
    suite.alice = await startDesk(await suite.rig.deskDir('alice'));
    suite.bob = await startDesk(await suite.rig.deskDir('bob'));
  }, 60_000);
  afterAll(async () => {
    await suite.alice?.close();
    await suite.bob?.close();
    await suite.rig?.close();
  });
  return suite;
}
