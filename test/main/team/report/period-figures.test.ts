// The period report's figures as the team store computes them (main/team/report/period-figures.ts), on a seeded
// status history, audit chain, four-eyes requests and webhook events at a fixed moment (the store's `vetted.now`):
// the period's days in the desk's time zone (New York, across the change to summer time), who opened and who
// closed what in which section, the times of the visits begun in it, what was overdue at its end, the requests
// and their decisions as they stood then, the rejected documents, and the audit chain's head at its end.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '#contract/audit-actions.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { teamPeriodFigures } from '#main/team/report/period-figures.ts';
import { teamClientConfig } from '#main/team/store/pool.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import {
  type ClaimsReviewer,
  type ClaimsTeam,
  reviewersAndALead,
} from '#test/support/team/claims-support.ts';
import { acted, customerWithHistory } from '../claims/overview-support.ts';

// Wednesday 11 March 2026, 15:00 UTC. New York moved to summer time (UTC−4) on Sunday the 8th at 02:00.
const NOW = '2026-03-11T15:00:00.000Z';
const NEW_YORK = 'America/New_York';
const TARGETS = { retry: 24, document: 48, review: 72 };

let team: ClaimsTeam;
let ana: ClaimsReviewer;
let lee: ClaimsReviewer;
let pool: pg.Pool;
let headAtEnd: { seq: number; chainHash: string };

const read = (from: string, to: string) =>
  teamPeriodFigures({ pool, target: lee.connection }).read({
    from,
    to,
    timeZone: NEW_YORK,
    targets: TARGETS,
  });

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

/** A four-eyes request row as the store keeps it, its state and times as the test names them. */
async function request(
  id: string,
  kind: 'retry' | 'exportNames',
  customerId: string | null,
  at: string,
  state: string,
) {
  // The store's functions write these rows with their audit entries; here the administrator writes the row
  // alone (its triggers off for this transaction) and the entries are appended apart, at the test's times.
  await team.admin.query('BEGIN');
  await team.admin.query('SET LOCAL session_replication_role = replica');
  await team.admin.query(
    `INSERT INTO vetted.approvals (id, kind, customer_id, maker, requested_at, expires_at, state)
     VALUES ($1, $2, $3, $4, $5, $5::timestamptz + interval '1 day', $6)`,
    [id, kind, customerId, ana.name, at, state],
  );
  await team.admin.query('COMMIT');
}

async function rejectedEvent(id: string, topic: string, document: string, created: string) {
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

beforeAll(async () => {
  ({ team, ana, lee } = await reviewersAndALead());
  pool = new pg.Pool({
    ...teamClientConfig(lee.connection, lee.password),
    options: `-c vetted.now=${NOW}`,
    max: 2,
  });
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

  await request(A1, 'retry', 'o-create', '2026-03-04T10:00:00.000Z', 'sent');
  await request(A2, 'exportNames', null, '2026-03-05T10:00:00.000Z', 'rejected');
  await request(A3, 'exportNames', null, '2026-03-01T10:00:00.000Z', 'expired');
  await step(ana, 'approval.request', 'o-create', `${A1}: retry`, '2026-03-04T10:00:00.000Z');
  await step(lee, 'approval.approve', 'o-create', `${A1}: approved`, '2026-03-04T11:00:00.000Z');
  await step(lee, 'approval.sent', 'o-create', `${A1}: sent`, '2026-03-04T11:00:01.000Z');
  const { rows } = await team.admin.query('SELECT seq::float8 AS seq, chain_hash FROM vetted.audit_head');
  headAtEnd = { seq: rows[0].seq, chainHash: rows[0].chain_hash };
  // Decided after the period's end: pending as the period closed.
  await step(lee, 'approval.reject', null, `${A2}: rejected`, '2026-03-10T09:00:00.000Z');

  await rejectedEvent('e-1', FAILED, 'doc-1', '2026-03-05T10:00:00.000Z');
  await rejectedEvent('e-2', FAILED, 'doc-2', '2026-03-10T10:00:00.000Z');
  await rejectedEvent('e-3', 'customer_verification_document_approved', 'doc-3', '2026-03-05T11:00:00.000Z');
});
afterAll(async () => {
  await pool.end();
});

describe('a week that ended (2 to 8 March, New York)', () => {
  it('runs from the first day’s midnight to the last day’s end in the desk’s time zone', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures).toMatchObject({
      from: '2026-03-02',
      to: '2026-03-08',
      timeZone: NEW_YORK,
      startAt: '2026-03-02T05:00:00.000Z',
      endAt: '2026-03-09T03:59:59.999Z',
    });
  });

  it('counts the cases opened and closed per section and per reviewer', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures.opened).toEqual([
      { section: 'retry', reviewer: null, count: 2 },
      { section: 'document', reviewer: lee.name, count: 1 },
    ]);
    expect(figures.closed).toEqual([
      { section: 'retry', reviewer: null, count: 1 },
      { section: 'document', reviewer: ana.name, count: 1 },
    ]);
  });

  it('measures the visits begun in the period, and what was overdue at its end', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures.times).toEqual([
      {
        section: 'retry',
        entered: 2,
        firstAction: { count: 0, medianSeconds: null, p90Seconds: null },
        resolution: { count: 1, medianSeconds: 172_800, p90Seconds: 172_800 },
      },
      {
        section: 'document',
        entered: 1,
        firstAction: { count: 1, medianSeconds: 79_200, p90Seconds: 79_200 },
        resolution: { count: 1, medianSeconds: 165_600, p90Seconds: 165_600 },
      },
    ]);
    expect(figures.overdue).toEqual([
      { section: 'retry', count: 1 },
      { section: 'document', count: 1 },
    ]);
  });

  it('gives the four-eyes requests with their decisions as they stood, the rejections and the chain’s head', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures.fourEyes).toEqual([
      { kind: 'exportNames', decision: 'pending', count: 1 },
      { kind: 'retry', decision: 'approved', count: 1 },
    ]);
    expect(figures.rejectedDocuments).toEqual(['doc-1']);
    expect(figures.auditHead).toEqual(headAtEnd);
  });
});

describe('a period reaching today', () => {
  it('ends at the store’s now, with the chain’s head then', async () => {
    const figures = await read('2026-03-09', '2026-03-11');
    expect(figures).toMatchObject({ startAt: '2026-03-09T04:00:00.000Z', endAt: NOW });
    expect(figures.opened).toEqual([{ section: 'retry', reviewer: null, count: 1 }]);
    expect(figures.fourEyes).toEqual([]);
    expect(figures.rejectedDocuments).toEqual(['doc-2']);
    expect(figures.auditHead?.seq).toBeGreaterThan(headAtEnd.seq);
  });
});
