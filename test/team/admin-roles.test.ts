// `npm run team -- set-role NAME lead|reviewer`: the administrator gives a reviewer a role, audited; status
// shows the leads; anything else is refused in words and changes nothing.
import pg from 'pg';
import { expect, test } from 'vitest';
import { addTestReviewer, initTeamStore, runTeam, trackPool } from './admin-support.ts';

test('set-role makes a reviewer a lead and back, audited under the administrator’s login; status shows it', async () => {
  const store = await initTeamStore();
  const ana = await addTestReviewer(store, 'ana');
  const lead = await runTeam('set-role', ana.name, 'lead', '--database', store.url);
  expect(lead).toMatchObject({ code: 0, err: '' });
  expect(lead.out).toContain(
    `${ana.name} is now a lead (was a reviewer). They may now reassign and take over`,
  );
  expect((await runTeam('status', '--database', store.url)).out).toContain(`  ${ana.name} (lead)\n`);
  const again = await runTeam('set-role', ana.name, 'lead', '--database', store.url);
  expect(again.out).toBe(`${ana.name} is already a lead; nothing changed.\n`);
  const back = await runTeam('set-role', ana.name, 'reviewer', '--database', store.url);
  expect(back.out).toContain(`${ana.name} is now a reviewer (was a lead). They may no longer reassign`);

  const db = trackPool(new pg.Pool({ connectionString: store.url, max: 1 }));
  const { rows } = await db.query(
    `SELECT actor = session_user AS by_admin, detail FROM vetted.audit_log WHERE action = 'team.setRole' ORDER BY seq`,
  );
  expect(rows).toEqual([
    { by_admin: true, detail: `${ana.name}: reviewer → lead` },
    { by_admin: true, detail: `${ana.name}: lead → reviewer` },
  ]);
});

test('set-role refuses a role it does not know, a name that is no reviewer, and a removed reviewer', async () => {
  const store = await initTeamStore();
  const ben = await addTestReviewer(store, 'ben');
  expect(await runTeam('set-role', ben.name, 'boss', '--database', store.url)).toMatchObject({
    code: 1,
    err: 'set-role takes NAME and a role: lead or reviewer.\n',
  });
  expect(await runTeam('set-role', ben.name, '--database', store.url)).toMatchObject({ code: 1 });
  expect((await runTeam('set-role', 'postgres', 'lead', '--database', store.url)).err).toMatch(
    /"postgres" is not a reviewer of this team: nothing was changed\./,
  );
  expect((await runTeam('remove-reviewer', ben.name, '--database', store.url)).code).toBe(0);
  expect((await runTeam('set-role', ben.name, 'lead', '--database', store.url)).err).toBe(
    `${ben.name} was removed from the team: their role no longer matters.\n`,
  );
});

test('set-role --help says what a lead may do', async () => {
  const help = await runTeam('set-role', '--help');
  expect(help.code).toBe(0);
  expect(help.out).toMatch(/^Usage: npm run team -- set-role NAME lead\|reviewer --database URL/);
  expect(help.out).toContain('the team store refuses it, whatever their\ndesk does');
  expect((await runTeam('--help')).out).toContain('set-role        make a reviewer a lead');
});
