// `npm run team -- set-role NAME lead|reviewer`: the administrator gives a reviewer a role, audited in the
// team's chain (sealed with the key file); status shows the leads; anything else is refused in words and
// changes nothing. The store itself refuses a role change that is not in the chain.

import fs from 'node:fs';
import pg from 'pg';
import { expect, test } from 'vitest';
import { createTeamKey, encodeTeamKey } from '#main/team/team-key.ts';
import {
  addTestReviewer,
  initTeamStore,
  runTeam,
  tempPath,
  trackPool,
} from '../support/team/admin-support.ts';

const setRole = (store: { url: string; keyFile: string }, ...args: string[]) =>
  runTeam('set-role', ...args, '--database', store.url, '--key-file', store.keyFile);

test('set-role makes a reviewer a lead and back, audited in the chain under the administrator’s login; status shows it', async () => {
  const store = await initTeamStore();
  const ana = await addTestReviewer(store, 'ana');
  const lead = await setRole(store, ana.name, 'lead');
  expect(lead).toMatchObject({ code: 0, err: '' });
  expect(lead.out).toContain(
    `${ana.name} is now a lead (was a reviewer). They may now reassign and take over`,
  );
  expect((await runTeam('status', '--database', store.url)).out).toContain(`  ${ana.name} (lead)\n`);
  const again = await setRole(store, ana.name, 'lead');
  expect(again.out).toBe(`${ana.name} is already a lead; nothing changed.\n`);
  const back = await setRole(store, ana.name, 'reviewer');
  expect(back.out).toContain(`${ana.name} is now a reviewer (was a lead). They may no longer reassign`);

  const db = trackPool(new pg.Pool({ connectionString: store.url, max: 1 }));
  const { rows } = await db.query(
    `SELECT actor = session_user AS by_admin, detail FROM vetted.audit_log WHERE action = 'team.setRole' ORDER BY seq`,
  );
  expect(rows).toEqual([
    { by_admin: true, detail: `${ana.name}: reviewer → lead` },
    { by_admin: true, detail: `${ana.name}: lead → reviewer` },
  ]);
  const verified = await runTeam('verify-audit', '--database', store.url, '--key-file', store.keyFile);
  expect(verified.out).toMatch(/^OK: the audit log holds\. 2 entries, every link and every seal checked/);
});

test('set-role needs this team’s key file, and without it changes nothing', async () => {
  const store = await initTeamStore();
  const ana = await addTestReviewer(store, 'ana');
  expect(await runTeam('set-role', ana.name, 'lead', '--database', store.url)).toMatchObject({
    code: 1,
    err: 'set-role needs --key-file FILE (the file init wrote): the change is sealed into the audit chain.\n',
  });
  const otherKey = tempPath('other.key');
  fs.writeFileSync(otherKey, `${encodeTeamKey(createTeamKey())}\n`, { mode: 0o600 });
  const wrong = await runTeam('set-role', ana.name, 'lead', '--database', store.url, '--key-file', otherKey);
  expect(wrong).toMatchObject({
    code: 1,
    err: `The key in ${otherKey} is not this team's key (another team's file?).\n`,
  });
  expect((await runTeam('status', '--database', store.url)).out).not.toContain('(lead)');
});

test('the store refuses to commit a role change without its audit entry, even the administrator’s', async () => {
  const store = await initTeamStore();
  const ana = await addTestReviewer(store, 'ana');
  const db = trackPool(new pg.Pool({ connectionString: store.url, max: 1 }));
  await expect(
    db.query(`INSERT INTO vetted.reviewer_roles (login, role) VALUES ($1, 'lead')`, [ana.name]),
  ).rejects.toMatchObject({
    code: '23000',
    hint: 'vetted:unaudited',
    message: `Every change to reviewer_roles is audited in its transaction: ${ana.name} has no team.setRole entry.`,
  });
  expect((await db.query('SELECT * FROM vetted.reviewer_roles')).rows).toEqual([]);
});

test('set-role refuses a role it does not know, a name that is no reviewer, and a removed reviewer', async () => {
  const store = await initTeamStore();
  const ben = await addTestReviewer(store, 'ben');
  expect(await setRole(store, ben.name, 'boss')).toMatchObject({
    code: 1,
    err: 'set-role takes NAME and a role: lead or reviewer.\n',
  });
  expect(await setRole(store, ben.name)).toMatchObject({ code: 1 });
  expect((await setRole(store, 'postgres', 'lead')).err).toMatch(
    /"postgres" is not a reviewer of this team: nothing was changed\./,
  );
  expect((await runTeam('remove-reviewer', ben.name, '--database', store.url)).code).toBe(0);
  expect((await setRole(store, ben.name, 'lead')).err).toBe(
    `${ben.name} was removed from the team: their role no longer matters.\n`,
  );
});

test('set-role --help says what a lead may do, and that it needs the key file', async () => {
  const help = await runTeam('set-role', '--help');
  expect(help.code).toBe(0);
  expect(help.out).toMatch(
    /^Usage: npm run team -- set-role NAME lead\|reviewer --database URL --key-file FILE/,
  );
  expect(help.out).toContain('the team store refuses it, whatever their\ndesk does');
  expect(help.out).toContain('--key-file is the file init wrote');
  expect((await runTeam('--help')).out).toContain('set-role        make a reviewer a lead');
});
