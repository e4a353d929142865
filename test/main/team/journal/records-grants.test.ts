import { expect, it } from 'vitest';
import { REVIEWER_FUNCTIONS } from '#admin/grants.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { KEPT_REJECTIONS } from '#main/data/journal/rejections.ts';
import { claimStore } from '#main/team/claims/claim-store.ts';
import { appendAuditEntry, teamAuditRepository } from '#main/team/journal/audit.ts';
import { teamEventsRepository } from '#main/team/journal/events.ts';
import { teamEventInbox } from '#main/team/journal/inbox.ts';
import { teamNotesRepository } from '#main/team/journal/notes.ts';
import { teamRejectionsRepository } from '#main/team/journal/rejections.ts';
import { teamRetriesRepository } from '#main/team/journal/retries.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import { inboxEvent } from '#test/support/inbox-event.ts';
import { contextOn, insertCustomer, loginRole, openPool, teamStore } from './records-context.ts';

/**
 * All the records need of a login beyond USAGE on the schema and its sequences: no DELETE at all (the security
 * log is pruned by the store's own function), no UPDATE of notes or the audit log (the team's grants may be
 * narrower than this, never need more).
 */
const RECORDS_GRANTS = [
  'SELECT, INSERT, UPDATE (duplicates_seen, processed_at) ON vetted.events',
  'SELECT, INSERT ON vetted.audit_log',
  // Appending to the audit chain locks its head through this function (it may not write the head itself).
  'EXECUTE ON FUNCTION vetted.audit_chain_head()',
  'SELECT ON vetted.audit_head',
  'SELECT, INSERT ON vetted.notes',
  'SELECT, INSERT, UPDATE (seq, used_at, outcome, released) ON vetted.retries',
  'SELECT ON vetted.customers',
  'SELECT, INSERT ON vetted.webhook_rejections',
  'EXECUTE ON FUNCTION vetted.prune_webhook_rejections()',
];

/**
 * All the claim store needs: the claims, settings and roles read, audit appends, and the functions the
 * reviewers' group may run (admin-grants.test.ts: exactly those), each of which the test below calls.
 */
const CLAIMS_GRANTS = [
  'SELECT ON vetted.claims, vetted.team_settings, vetted.reviewer_roles, vetted.team_meta, vetted.hubs',
  'SELECT, INSERT ON vetted.audit_log',
  'SELECT ON vetted.audit_head',
  ...REVIEWER_FUNCTIONS.map((fn) => `EXECUTE ON FUNCTION ${fn}`),
];

it('works for a login granted only what the records need', async () => {
  const { url, pool, teamKey } = await teamStore();
  await insertCustomer(pool, 'c-1');
  const reviewer = await loginRole(url, RECORDS_GRANTS);
  const { ctx } = contextOn(reviewer.url, undefined, teamKey);

  const events = teamEventsRepository(ctx);
  await events.record(inboxEvent('ev-1'));
  await events.record(inboxEvent('ev-1'));
  await events.markProcessed('ev-1');
  const inbox = teamEventInbox(ctx);
  await inbox.record([inboxEvent('ev-2')], { delivered: true });
  await inbox.markProcessed(['ev-2']);
  await inbox.recordRejection({ remoteAddress: '10.0.0.1', status: 401, reason: 'signature-missing' });
  await inbox.close();
  expect(await events.unprocessed()).toEqual([]);

  await teamRejectionsRepository(ctx).record({ remoteAddress: '10.0.0.2', status: 413, reason: 'too-large' });
  expect(await teamRejectionsRepository(ctx).count()).toBe(2);
  // A full log: recording one more forgets the oldest, without a DELETE grant.
  await pool.query(
    `INSERT INTO vetted.webhook_rejections (at, remote_address, status, reason)
     SELECT now(), '10.0.0.3', 401, 'signature-missing' FROM generate_series(1, $1)`,
    [KEPT_REJECTIONS],
  );
  await teamRejectionsRepository(ctx).record({ remoteAddress: '10.0.0.4', status: 401, reason: 'newest' });
  expect(await teamRejectionsRepository(ctx).count()).toBe(KEPT_REJECTIONS);
  expect((await teamRejectionsRepository(ctx).list({ limit: 1 }))[0]?.reason).toBe('newest');
  expect((await teamAuditRepository(ctx).record({ action: 'note.add', outcome: 'ok' })).actor).toBe(
    reviewer.name,
  );
  expect((await teamNotesRepository(ctx).add({ customerId: 'c-1', text: 'seen' })).author).toBe(
    reviewer.name,
  );

  const retries = teamRetriesRepository(ctx);
  await retries.record('c-1', null);
  await retries.record('c-1', 'verified');
  await retries.release('c-1');
  expect(await retries.list()).toEqual([]);
});

it('the claim store works for a lead’s login granted only what claims, roles and settings need', async () => {
  const { url, pool, teamKey } = await teamStore();
  await insertCustomer(pool, 'c-1');
  const lead = await loginRole(url, CLAIMS_GRANTS);
  const sealer = auditSealer(teamKey);
  // The team's group, the login in it, and made a lead as set-role does (its entry in the same transaction).
  const group = `${lead.name}_group`;
  await pool.query(`CREATE ROLE ${group} NOLOGIN; GRANT ${group} TO ${lead.name}`);
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES (gen_random_uuid(), 'k', $1)`,
      [group],
    );
    await client.query(`INSERT INTO vetted.reviewer_roles (login, role) VALUES ($1, 'lead')`, [lead.name]);
    await appendAuditEntry(client, sealer, {
      at: new Date().toISOString(),
      action: 'team.setRole',
      customerId: null,
      outcome: 'ok',
      detail: `${lead.name}: reviewer → lead`,
    });
  });
  const target = { host: 'localhost', port: 5432, database: 'vetted', user: lead.name };
  const store = claimStore({ pool: openPool(lead.url), target, sealer });

  expect(await store.role()).toBe('lead');
  expect(await store.reviewers()).toEqual([{ login: lead.name, role: 'lead' }]);
  expect(await store.take('c-1', 'take')).toMatchObject({ outcome: 'taken', holder: lead.name });
  expect(await store.release('c-1')).toMatchObject({ outcome: 'released' });
  expect(await store.next(['attention'])).toMatchObject({ customerId: 'c-1' });
  expect(await store.reassign('c-1', lead.name, 'sealed')).toMatchObject({ outcome: 'reassigned' });
  expect(await store.takeOver('c-1', 'sealed')).toMatchObject({ outcome: 'held' });
  expect(await store.expire()).toBe(0);
  await store.setSetting('claim_idle_minutes', 45);
  expect((await store.settings()).get('claim_idle_minutes')).toBe(45);
  const { rows } = await pool.query('SELECT actor, action FROM vetted.audit_log WHERE seq > 1 ORDER BY seq');
  expect(rows.map((row) => row.action)).toEqual([
    'claim.take',
    'claim.release',
    'claim.take',
    'claim.reassign',
    'team.setting',
  ]);
  expect(new Set(rows.map((row) => row.actor))).toEqual(new Set([lead.name]));
});
