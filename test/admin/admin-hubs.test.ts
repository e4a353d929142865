// `npm run team -- add-hub NAME` and `mark-hub NAME` (#39): a hub logs in like a reviewer but is marked as a
// hub in the store (migration 14), audited in the chain under the administrator's login; from then on the
// store lists it apart (team_hubs, status) and never as a person: not among the reviewers a desk is given, not
// a case's holder, not a lead, not a reassignment's target. A hub added with add-reviewer is marked later.
import { beforeAll, describe, expect, it } from 'vitest';
import { addTestLogin, parseAddReviewer, runTeam } from '../support/team/admin-support.ts';
import {
  type ClaimsReviewer,
  type ClaimsTeam,
  claimsTeam,
  holderOf,
  take,
} from '../support/team/claims-support.ts';

const NOT_A_PERSON = { code: '23000', hint: 'vetted:hub-not-a-person' };

let team: ClaimsTeam;
let lee: ClaimsReviewer;
let ana: ClaimsReviewer;
let hub: ClaimsReviewer;

const markHub = (name: string, ...extra: string[]) =>
  runTeam('mark-hub', name, '--database', team.store.url, ...extra);
const withKey = () => ['--key-file', team.store.keyFile];
const logins = async (who: ClaimsReviewer) => (await who.store.reviewers()).map((r) => r.login);

beforeAll(async () => {
  team = await claimsTeam();
  lee = await team.reviewer('lee');
  await team.setRole(lee.name, 'lead');
  ana = await team.reviewer('ana');
  hub = await team.reviewer('hub', 'add-hub');
});

describe('add-hub', () => {
  it('prints the hub’s join code and password, and marks it: listed as a hub, never as a reviewer', async () => {
    const added = await addTestLogin('add-hub', team.store, 'hub2');
    expect(added.out).toMatch(
      /^Hub hub2_\w+ added \(127\.0\.0\.1:\d+\/\w+, sslmode disable\); it is never listed/,
    );
    expect(added.out).toContain(`JOIN CODE for the hub ${added.name} (npm run hub -- join`);
    expect(parseAddReviewer(added.out).password).toMatch(/^\S{32}$/);
    expect(await logins(lee)).toEqual([ana.name, lee.name].sort());
    const hubs = await lee.pool.query('SELECT login FROM vetted.team_hubs()');
    expect(hubs.rows.map((row) => row.login)).toEqual([hub.name, added.name].sort());
    const status = (await runTeam('status', '--database', team.store.url)).out;
    expect(status).toContain(`Hubs:\n  ${[hub.name, added.name].sort().join('\n  ')}\n`);
    // Audited under the administrator's login, sealed: the chain still verifies.
    const marks = await team.auditOf('team.markHub');
    expect(marks.map((row) => row.detail)).toEqual([`${hub.name}: hub`, `${added.name}: hub`]);
    const verified = await runTeam('verify-audit', '--database', team.store.url, ...withKey());
    expect(verified.out).toMatch(/^OK: the audit log holds\./);
  });

  it('--help says what a hub is, and the command list names both commands', async () => {
    const help = await runTeam('add-hub', '--help');
    expect(help).toMatchObject({ code: 0 });
    expect(help.out).toContain('never listed among the reviewers');
    const all = (await runTeam('--help')).out;
    expect(all).toContain('add-hub         give a hub a login of its own');
    expect(all).toContain('mark-hub        mark a hub added with add-reviewer as a hub');
  });
});

describe('the store never treats a hub as a person', () => {
  it('a hub’s login cannot hold a case, and a lead cannot give it one', async () => {
    const [caseId] = (await team.addCustomers(1, 'retry', 1)) as [string];
    await expect(
      hub.pool.query(`SELECT * FROM vetted.claim_take($1, 'take')`, [caseId]),
    ).rejects.toMatchObject({ ...NOT_A_PERSON, message: `${hub.name} is a hub: a hub holds no case.` });
    await expect(lee.store.reassign(caseId, hub.name, 'sealed')).rejects.toMatchObject({
      code: 'NoSuchReviewer',
    });
    expect(await holderOf(team, caseId)).toBeNull();
  });

  it('a hub is never a lead: set-role refuses it in words, and the store refuses it too', async () => {
    const run = await runTeam('set-role', hub.name, 'lead', '--database', team.store.url, ...withKey());
    expect(run).toMatchObject({
      code: 1,
      err: `${hub.name} is a hub: a hub is not a person and has no role.\n`,
    });
    await expect(
      team.admin.query(`INSERT INTO vetted.reviewer_roles (login, role) VALUES ($1, 'lead')`, [hub.name]),
    ).rejects.toMatchObject(NOT_A_PERSON);
  });
});

describe('mark-hub: a hub added with add-reviewer', () => {
  it('marks it once, keeping its password; then it is listed as a hub only', async () => {
    const old = await team.reviewer('oldhub');
    expect(await logins(lee)).toContain(old.name);
    expect(await markHub(old.name)).toMatchObject({
      code: 1,
      err: 'mark-hub needs --key-file FILE (the file init wrote): the change is sealed into the audit chain.\n',
    });
    const marked = await markHub(old.name, ...withKey());
    expect(marked).toMatchObject({ code: 0, err: '' });
    expect(marked.out).toBe(
      `${old.name} is now marked as a hub: it is no longer listed among the reviewers, offered a case or made a lead. Its join code and password are unchanged.\n`,
    );
    expect(await logins(lee)).not.toContain(old.name);
    // Its own login still works: a hub's sessions go on as before.
    expect((await old.pool.query('SELECT session_user AS me')).rows).toEqual([{ me: old.name }]);
    expect((await markHub(old.name, ...withKey())).out).toBe(
      `${old.name} is already marked as a hub; nothing changed.\n`,
    );
    expect((await team.auditOf('team.markHub')).at(-1)?.detail).toBe(`${old.name}: hub`);
  });

  it('refuses a lead, a login holding a case, a name that is no login of the team, and a removed one', async () => {
    expect((await markHub(lee.name, ...withKey())).err).toBe(
      `${lee.name} is a lead: a hub is not a person and has no role. If ${lee.name} is the hub's login, make it a reviewer first (set-role ${lee.name} reviewer).\n`,
    );
    const [caseId] = (await team.addCustomers(1, 'retry', 5)) as [string];
    await take(ana, caseId);
    expect((await markHub(ana.name, ...withKey())).err).toBe(
      `${ana.name} holds 1 case(s): a hub holds none. If ${ana.name} is a person, leave them a reviewer; otherwise a lead reassigns those cases first.\n`,
    );
    expect((await markHub('postgres', ...withKey())).err).toMatch(
      /"postgres" is not a reviewer of this team/,
    );
    const gone = await team.reviewer('gone');
    expect((await runTeam('remove-reviewer', gone.name, '--database', team.store.url)).code).toBe(0);
    expect((await markHub(gone.name, ...withKey())).err).toBe(
      `${gone.name} was removed from the team: it is listed nowhere any more.\n`,
    );
    expect(await logins(lee)).toContain(ana.name);
    expect(await logins(lee)).toContain(lee.name);
  });
});
