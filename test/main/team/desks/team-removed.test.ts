// A reviewer the administrator removed, at a desk still running: every write says, in words, that the team
// store no longer lets this reviewer in, as Settings → Team says, never "Something went wrong inside Vetted".
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { removeReviewer } from '#admin/reviewers.ts';
import { VettedError } from '#contract/errors.ts';
import { type DeskHarness, startDesk } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { startTeamRig, type TeamRig } from '#test/support/team/team-rig.ts';

let rig: TeamRig;
let bob: DeskHarness;

beforeAll(async () => {
  rig = await startTeamRig(await freshDatabase());
  bob = await startDesk(await rig.deskDir('bob'));
}, 60_000);

afterAll(async () => {
  await bob?.close();
  await rig?.close();
});

test('a removed reviewer’s desk refuses notes.add and any other write in the words team.status uses', async () => {
  const form = validForm({ firstName: 'retry', lastName: 'Rendell' });
  const { id } = await bob.call('drafts.create');
  await bob.call('drafts.save', { id, form });
  await bob.call('drafts.submit', { ids: [id] });
  const row = await until(
    async () =>
      (await bob.call('queue.window', { section: 'all', search: 'Rendell', offset: 0, limit: 5 })).rows[0],
    'the customer on bob’s desk',
    30_000,
  );
  await bob.call('notes.add', { customerId: row.id, text: 'Before removal.' });

  const admin = new pg.Client({ connectionString: rig.adminUrl });
  await admin.connect();
  try {
    expect((await removeReviewer(admin, rig.reviewers.bob.login)).sessionsEnded).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }

  const status = await bob.call('team.status');
  const words = `The team store does not let "${rig.reviewers.bob.login}" log in (removed from the team, or not allowed from here by pg_hba.conf). Ask your administrator.`;
  expect(status.problem).toBe(words);
  const writes = [
    () => bob.call('notes.add', { customerId: row.id, text: 'After removal.' }),
    () => bob.call('customers.reveal', { id: row.id, reason: 'checking the address' }),
    () => bob.call('queue.export', { section: 'all', search: '' }),
  ];
  for (const write of writes) {
    const refused = await write().then(
      () => new Error('the store let a removed reviewer write'),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(VettedError);
    expect(refused).toMatchObject({ code: 'TeamNoAccess', message: words });
  }
  expect(bob.logLines.join('\n')).not.toContain('Something went wrong');
}, 60_000);
