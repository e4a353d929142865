// One world for the period report (#39), written into a team store: a status history, an audit chain, four-eyes
// requests and webhook events around the week of 2 to 8 March 2026 in New York (across the change to summer
// time), read at a fixed moment (the store's `vetted.now`). The store's figures are tested on it
// (test/main/team/report/period-figures.test.ts) and so is the report a lead's desk makes of it
// (test/main/features/report/period-report-world.test.ts).
import type { AuditAction } from '#contract/audit-actions.ts';
import type { AgeingTargets } from '#contract/queue-view.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import { acted, customerWithHistory } from '#test/main/team/claims/overview-support.ts';
import type { ClaimsReviewer, ClaimsTeam } from '#test/support/team/claims-support.ts';

// Wednesday 11 March 2026, 15:00 UTC. New York moved to summer time (UTC−4) on Sunday the 8th at 02:00.
export const PERIOD_NOW = '2026-03-11T15:00:00.000Z';
export const PERIOD_ZONE = 'America/New_York';
export const PERIOD_TARGETS: AgeingTargets = { retry: 24, document: 48, review: 72 };
/** The week that ended; and the days from the next one to today. */
export const PERIOD_WEEK = { from: '2026-03-02', to: '2026-03-08' };

/** The documents the service rejected: doc-1 in the week, doc-2 after it. */
export const REJECTED_IN_WEEK = 'doc-1';

/** An audit entry with a detail (a four-eyes step names its request first), as the reviewer's desk appends it. */
const step = (
  reviewer: ClaimsReviewer,
  action: AuditAction,
  customerId: string | null,
  detail: string,
  at: string,
) =>
  inTransaction(reviewer.pool, (client) =>
    appendAuditEntry(client, auditSealer(reviewer.teamKey), {
      at,
      action,
      customerId,
      outcome: 'ok',
      detail,
    }),
  );

/** A four-eyes request row as the store keeps it, its state and times as the world names them. */
async function request(
  team: ClaimsTeam,
  maker: string,
  row: { id: string; kind: 'retry' | 'exportNames'; customerId: string | null; at: string; state: string },
) {
  // The store's functions write these rows with their audit entries; here the administrator writes the row
  // alone (its triggers off for this transaction) and the entries are appended apart, at the world's times.
  await team.admin.query('BEGIN');
  await team.admin.query('SET LOCAL session_replication_role = replica');
  await team.admin.query(
    `INSERT INTO vetted.approvals (id, kind, customer_id, maker, requested_at, expires_at, state)
     VALUES ($1, $2, $3, $4, $5, $5::timestamptz + interval '1 day', $6)`,
    [row.id, row.kind, row.customerId, maker, row.at, row.state],
  );
  await team.admin.query('COMMIT');
}

async function rejectedEvent(team: ClaimsTeam, id: string, topic: string, document: string, created: string) {
  await team.admin.query(
    `INSERT INTO vetted.events (id, topic, resource_id, customer_id, created, received_at, signature_verified)
     VALUES ($1, $2, $3, NULL, $4, $4, true)`,
    [id, topic, document, created],
  );
}

const A1 = '00000000-0000-4000-8000-000000000001';
const A2 = '00000000-0000-4000-8000-000000000002';
const A3 = '00000000-0000-4000-8000-000000000003';
const FAILED = 'customer_verification_document_failed';

/** The customers' histories: who came when, and where they went. */
async function customers(team: ClaimsTeam, { ana, lee }: Record<'ana' | 'lee', ClaimsReviewer>) {
  // Waiting in "Needs document" since just before the period began (23:59 on the 1st in New York).
  await customerWithHistory(team, 'o-early', [['document', '2026-03-02T04:59:00.000Z']]);
  // Created by lee on the 3rd (first acted on by the four-eyes request of the 4th), closed on the 5th after ana’s note.
  await customerWithHistory(team, 'o-create', [
    ['document', '2026-03-03T12:00:00.000Z'],
    ['verified', '2026-03-05T10:00:00.000Z'],
  ]);
  await acted(lee, 'o-create', 'customer.create', '2026-03-03T11:59:59.500Z');
  await acted(ana, 'o-create', 'note.add', '2026-03-05T09:00:00.000Z');
  // Came by a webhook, suspended two days later with nobody's hand on it.
  await customerWithHistory(team, 'o-webhook', [
    ['retry', '2026-03-04T12:00:00.000Z'],
    ['suspended', '2026-03-06T12:00:00.000Z'],
  ]);
  // 23:30 on the 8th in New York (summer time): the period's last half hour; the next one begins the 9th.
  await customerWithHistory(team, 'o-late', [['retry', '2026-03-09T03:30:00.000Z']]);
  await customerWithHistory(team, 'o-next', [['retry', '2026-03-09T04:00:00.000Z']]);
  // In "Needs retry" since the 1st (a repeated status continues the visit); another gone on the 5th.
  await customerWithHistory(team, 'o-overdue', [
    ['retry', '2026-03-01T10:00:00.000Z'],
    ['retry', '2026-03-07T10:00:00.000Z'],
  ]);
  await customerWithHistory(team, 'o-gone', [['retry', '2026-03-01T00:00:00.000Z']]);
  await team.admin.query(`UPDATE vetted.customers SET gone_at = '2026-03-05T00:00:00Z' WHERE id = 'o-gone'`);
}

/**
 * Writes the world into `team`'s store (ana a reviewer, lee a lead); returns the audit chain's head as the
 * week ended (its last entry before the request decided after it).
 */
export async function periodInTeam(
  team: ClaimsTeam,
  reviewers: Record<'ana' | 'lee', ClaimsReviewer>,
): Promise<{ headAtEnd: { seq: number; chainHash: string } }> {
  const { ana, lee } = reviewers;
  await customers(team, reviewers);
  const o = 'o-create';
  await request(team, ana.name, {
    id: A1,
    kind: 'retry',
    customerId: o,
    at: '2026-03-04T10:00:00.000Z',
    state: 'sent',
  });
  await request(team, ana.name, {
    id: A2,
    kind: 'exportNames',
    customerId: null,
    at: '2026-03-05T10:00:00.000Z',
    state: 'rejected',
  });
  await request(team, ana.name, {
    id: A3,
    kind: 'exportNames',
    customerId: null,
    at: '2026-03-01T10:00:00.000Z',
    state: 'expired',
  });
  await step(ana, 'approval.request', o, `${A1}: retry`, '2026-03-04T10:00:00.000Z');
  await step(lee, 'approval.approve', o, `${A1}: approved`, '2026-03-04T11:00:00.000Z');
  await step(lee, 'approval.sent', o, `${A1}: sent`, '2026-03-04T11:00:01.000Z');
  const { rows } = await team.admin.query('SELECT seq::float8 AS seq, chain_hash FROM vetted.audit_head');
  const headAtEnd = { seq: rows[0].seq, chainHash: rows[0].chain_hash };
  // Decided after the period's end: pending as the period closed.
  await step(lee, 'approval.reject', null, `${A2}: rejected`, '2026-03-10T09:00:00.000Z');

  await rejectedEvent(team, 'e-1', FAILED, REJECTED_IN_WEEK, '2026-03-05T10:00:00.000Z');
  await rejectedEvent(team, 'e-2', FAILED, 'doc-2', '2026-03-10T10:00:00.000Z');
  await rejectedEvent(
    team,
    'e-3',
    'customer_verification_document_approved',
    'doc-3',
    '2026-03-05T11:00:00.000Z',
  );
  return { headAtEnd };
}
