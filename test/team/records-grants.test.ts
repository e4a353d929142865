import { expect, it } from 'vitest';
import { KEPT_REJECTIONS } from '../../main/journal/rejections.ts';
import { teamAuditRepository } from '../../main/team/journal/audit.ts';
import { teamEventsRepository } from '../../main/team/journal/events.ts';
import { teamEventInbox } from '../../main/team/journal/inbox.ts';
import { teamNotesRepository } from '../../main/team/journal/notes.ts';
import { teamRejectionsRepository } from '../../main/team/journal/rejections.ts';
import { teamRetriesRepository } from '../../main/team/journal/retries.ts';
import { inboxEvent } from '../support/inbox-event.ts';
import { contextOn, insertCustomer, loginRole, teamStore } from './records-context.ts';

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
