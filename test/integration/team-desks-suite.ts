// Two desks, Alice's and Bob's, and a hub on one sandbox (test/support/team-rig.ts), for a test file: started
// before its tests (after `prepare`, which may change the team first), closed after them.
import { afterAll, beforeAll } from 'vitest';
import { freshDatabase } from '../support/team-db.ts';
import { startTeamRig, type TeamRig } from '../support/team-rig.ts';
import { type DeskHarness, startDesk } from './desk-harness.ts';

export interface TeamDesks {
  rig: TeamRig;
  alice: DeskHarness;
  bob: DeskHarness;
}

export function teamDesksForSuite(prepare?: (rig: TeamRig) => Promise<void>): () => TeamDesks {
  const desks: Partial<TeamDesks> = {};
  beforeAll(async () => {
    desks.rig = await startTeamRig(await freshDatabase());
    await prepare?.(desks.rig);
    desks.alice = await startDesk(await desks.rig.deskDir('alice'));
    desks.bob = await startDesk(await desks.rig.deskDir('bob'));
  }, 60_000);
  afterAll(async () => {
    await desks.alice?.close();
    await desks.bob?.close();
    await desks.rig?.close();
  });
  return () => desks as TeamDesks;
}
