// `team reset-password` and `team join-code`: a reviewer gets a new password, or their join code again, under
// the same name; the old password stops working at once, and nobody's login is touched that is not the team's.
import { expect, test } from 'vitest';
import { decodeJoinCode } from '#main/team/join-code.ts';
import { checkTeamStore } from '#main/team/store/pool.ts';
import {
  addTestReviewer,
  connectFailure,
  initTeamStore,
  joinCodeCommand,
  reviewerPool,
  runTeam,
} from '../support/team/admin-support.ts';
import { insertAuditRow } from '../support/team/audit-rows.ts';

/** The password printed under its label, as an administrator reads it. */
const printedPassword = (out: string) => {
  const lines = out.split('\n');
  return lines[lines.findIndex((line) => line.startsWith('ONE-TIME PASSWORD')) + 1] ?? '';
};

test('a new password under the same name: the old one is refused and its sessions end, the join code still works', async () => {
  const store = await initTeamStore();
  const alice = await addTestReviewer(store, 'alice');
  const session = await reviewerPool(alice).connect();
  session.on('error', () => undefined);

  const run = await runTeam('reset-password', alice.name, '--database', store.url);
  expect(run.code, run.err).toBe(0);
  expect(run.out).toMatch(/has a new password; 1 open session\(s\) with the old one ended/);
  expect(run.out).toContain('Their join code is unchanged');
  const password = printedPassword(run.out);
  expect(password).toMatch(/^\S{32}$/);
  expect(password).not.toBe(alice.password);
  await expect(session.query('SELECT 1')).rejects.toThrow();
  session.release(true);

  const refused = await connectFailure(alice.joinCode.connection, alice.password);
  expect(refused.passwordRefused).toBe(true);
  const renewed = reviewerPool({ joinCode: alice.joinCode, password });
  await checkTeamStore(renewed, alice.joinCode.teamKey);
  // Still the same reviewer: the store stamps the same name.
  const { actor } = await insertAuditRow(renewed, { action: 'note.add' });
  expect(actor).toBe(alice.name);
});

test('reset-password refuses a removed reviewer, a login that is not a reviewer, and a name nobody has', async () => {
  const store = await initTeamStore();
  const bob = await addTestReviewer(store, 'bob');
  expect(await runTeam('remove-reviewer', bob.name, '--database', store.url)).toMatchObject({ code: 0 });
  const removed = await runTeam('reset-password', bob.name, '--database', store.url);
  expect(removed).toMatchObject({ code: 1, out: '' });
  expect(removed.err).toMatch(/was removed from the team: add them again/);

  const admin = await runTeam('reset-password', 'postgres', '--database', store.url);
  expect(admin.code).toBe(1);
  expect(admin.err).toMatch(/not a reviewer of this team: nothing was changed/);
  const nobody = await runTeam('reset-password', 'nobody_here', '--database', store.url);
  expect(nobody.code).toBe(1);
  expect(nobody.err).toMatch(/There is no reviewer "nobody_here"/);
  expect((await runTeam('reset-password', '--database', store.url)).err).toMatch(/takes one NAME/);
});

test('join-code prints a current reviewer’s code again, which joins as before; a removed reviewer gets none', async () => {
  const store = await initTeamStore();
  const carol = await addTestReviewer(store, 'carol');
  const run = await joinCodeCommand('join-code', carol.name, store, store.keyFile);
  expect(run.code, run.err).toBe(0);
  expect(run.out).toContain('their older unused codes no longer work');
  const lines = run.out.split('\n');
  const again = decodeJoinCode(lines[lines.findIndex((line) => line.startsWith('JOIN CODE')) + 1] ?? '');
  expect({ ...again, use: carol.joinCode.use }).toEqual(carol.joinCode);
  expect(again.use.id).not.toBe(carol.joinCode.use.id);
  await checkTeamStore(reviewerPool({ joinCode: again, password: carol.password }), again.teamKey);

  expect((await runTeam('join-code', carol.name, '--database', store.url)).err).toMatch(/needs --key-file/);
  expect(await runTeam('remove-reviewer', carol.name, '--database', store.url)).toMatchObject({ code: 0 });
  const removed = await joinCodeCommand('join-code', carol.name, store, store.keyFile);
  expect(removed).toMatchObject({ code: 1, out: '' });
  expect(removed.err).toMatch(/was removed from the team/);
});
