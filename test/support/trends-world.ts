// One world for the trends (#39), written into either store: the team store (as the hub writes statuses and
// each reviewer's desk appends its audit entries) or a solo desk's journal (through its repositories, its
// clock set to each moment). The same history in both, so the two stores' SQL must give the same figures.
//
// The week from Thursday 29 October to Wednesday 4 November 2026 in New York, read at 10:00 on the 4th:
// daylight saving time ends on Sunday 1 November, a 25-hour day (04:00 UTC to 05:00 UTC the next day).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { AuditAction } from '#contract/audit-actions.ts';
import type { AgeingTargets } from '#contract/queue-view.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import { serviceCustomer } from '#test/main/data/journal/helpers.ts';
import { customerWithHistory } from '#test/main/team/claims/overview-support.ts';
import type { ClaimsReviewer, ClaimsTeam } from '#test/support/team/claims-support.ts';

export const TRENDS_NOW = '2026-11-04T15:00:00.000Z';
export const TRENDS_ZONE = 'America/New_York';
export const TRENDS_TARGETS: AgeingTargets = { retry: 24, document: 48, review: 72 };
export const TRENDS_WEEK = { from: '2026-10-29', to: '2026-11-04' };

/** The world's reviewers: ana (whose "mine" the tests read), ben, and lee, a lead. */
export type Who = 'ana' | 'ben' | 'lee';
export type Names = Record<Who, string>;

interface WorldCustomer {
  id: string;
  steps: readonly (readonly [status: string, at: string])[];
  goneAt?: string;
}

interface WorldEntry {
  who: Who;
  customer: string;
  action: AuditAction;
  at: string;
  /** A reassignment names the new holder: the logins differ from one store to the other. */
  detail?: (names: Names) => string;
}

export const TRENDS_CUSTOMERS: readonly WorldCustomer[] = [
  // Retry since before the range, overdue from the 29th, closed at 23:30 on Sunday the 1st in New York (04:30
  // UTC on the 2nd: a day that ends at 05:00 UTC).
  {
    id: 'c-retry',
    steps: [
      ['retry', '2026-10-28T12:00:00.000Z'],
      ['verified', '2026-11-02T04:30:00.000Z'],
    ],
  },
  // A document awaited since the 30th (the poll saw it again on the 1st: the same visit), overdue from the 1st.
  {
    id: 'c-doc',
    steps: [
      ['document', '2026-10-30T10:00:00.000Z'],
      ['document', '2026-11-01T10:00:00.000Z'],
    ],
  },
  // Unverified, then knowledge-based questions, then deactivated.
  {
    id: 'c-kba',
    steps: [
      ['unverified', '2026-10-29T15:00:00.000Z'],
      ['kba', '2026-10-31T15:00:00.000Z'],
      ['deactivated', '2026-11-03T15:00:00.000Z'],
    ],
  },
  // A status the queue does not know: "Other".
  { id: 'c-other', steps: [['pending_review', '2026-10-25T12:00:00.000Z']] },
  // Awaiting a document since long before, gone (the service answered 404) at noon on the 2nd.
  { id: 'c-gone', steps: [['document', '2026-10-20T12:00:00.000Z']], goneAt: '2026-11-02T12:00:00.000Z' },
  // Verified, then suspended: one closing (by nobody: no one acted on it).
  {
    id: 'c-flip',
    steps: [
      ['retry', '2026-10-29T13:00:00.000Z'],
      ['verified', '2026-10-29T14:00:00.000Z'],
      ['suspended', '2026-10-30T14:00:00.000Z'],
    ],
  },
  // Knowledge-based questions since before the range, verified on the 30th after the lead's note.
  {
    id: 'c-lead',
    steps: [
      ['kba', '2026-10-25T12:00:00.000Z'],
      ['verified', '2026-10-30T20:00:00.000Z'],
    ],
  },
  // A document asked for an hour before now, verified after now: not closed yet.
  {
    id: 'c-late',
    steps: [
      ['document', '2026-11-04T14:00:00.000Z'],
      ['verified', '2026-11-04T16:00:00.000Z'],
    ],
  },
];

const entries: WorldEntry[] = [
  { who: 'ana', customer: 'c-gone', action: 'claim.take', at: '2026-10-25T09:00:00.000Z' },
  { who: 'ana', customer: 'c-retry', action: 'note.add', at: '2026-10-28T13:00:00.000Z' },
  { who: 'ana', customer: 'c-retry', action: 'claim.take', at: '2026-10-28T13:00:01.000Z' },
  { who: 'ben', customer: 'c-kba', action: 'note.add', at: '2026-10-29T15:05:00.000Z' },
  // How a case comes in is no first action: ben's note ten minutes in is.
  { who: 'ben', customer: 'c-doc', action: 'customer.create', at: '2026-10-30T10:00:01.000Z' },
  { who: 'ben', customer: 'c-doc', action: 'note.add', at: '2026-10-30T10:10:00.000Z' },
  { who: 'ben', customer: 'c-doc', action: 'claim.take', at: '2026-10-30T11:00:00.000Z' },
  { who: 'lee', customer: 'c-lead', action: 'note.add', at: '2026-10-30T19:00:00.000Z' },
  { who: 'ana', customer: 'c-kba', action: 'note.add', at: '2026-10-31T16:00:00.000Z' },
  { who: 'ana', customer: 'c-gone', action: 'claim.release', at: '2026-10-31T12:00:00.000Z' },
  { who: 'ana', customer: 'c-retry', action: 'customer.retry', at: '2026-11-02T04:00:00.000Z' },
  {
    who: 'lee',
    customer: 'c-doc',
    action: 'claim.reassign',
    at: '2026-11-02T12:00:00.000Z',
    detail: (names) => `from ${names.ben} to ${names.ana}`,
  },
  { who: 'lee', customer: 'c-kba', action: 'note.add', at: '2026-11-03T14:00:00.000Z' },
  // Stamped 400 ms after the status the service dated to the second: it caused it, so ana closed it.
  { who: 'ana', customer: 'c-kba', action: 'note.add', at: '2026-11-03T15:00:00.400Z' },
  { who: 'ana', customer: 'c-late', action: 'note.add', at: '2026-11-04T14:30:00.000Z' },
  // After now: not counted.
  { who: 'ben', customer: 'c-late', action: 'note.add', at: '2026-11-04T15:30:00.000Z' },
];
/** In time order (each store appends them so). */
export const TRENDS_ENTRIES: readonly WorldEntry[] = entries.sort((a, b) => a.at.localeCompare(b.at));

/** The world in a team store: statuses by the administrator, entries by each reviewer as their desk appends them. */
export async function trendsInTeam(team: ClaimsTeam, reviewers: Record<Who, ClaimsReviewer>): Promise<Names> {
  const names = { ana: reviewers.ana.name, ben: reviewers.ben.name, lee: reviewers.lee.name };
  for (const { id, steps, goneAt } of TRENDS_CUSTOMERS) {
    await customerWithHistory(team, id, steps);
    if (goneAt)
      await team.admin.query('UPDATE vetted.customers SET gone_at = $2 WHERE id = $1', [id, goneAt]);
  }
  for (const entry of TRENDS_ENTRIES) {
    const reviewer = reviewers[entry.who];
    await inTransaction(reviewer.pool, (client) =>
      appendAuditEntry(client, auditSealer(reviewer.teamKey), {
        at: entry.at,
        action: entry.action,
        customerId: entry.customer,
        outcome: 'ok',
        detail: entry.detail?.(names) ?? null,
      }),
    );
  }
  return names;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The world in a solo desk's journal, every write at its own moment (the journal's clock), the reviewers'
 * entries under their names. The journal's clock then stays at TRENDS_NOW. Its caller closes it.
 */
export async function trendsInJournal(names: Names): Promise<SqliteJournal> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-trends-'));
  dirs.push(dir);
  let now = TRENDS_NOW;
  const journal = openJournal({
    file: path.join(dir, 'journal.db'),
    dataKey: createFieldKey(),
    clock: () => new Date(now),
    actor: names.ana,
  });
  const writes: { at: string; write: () => Promise<unknown> }[] = [];
  for (const { id, steps, goneAt } of TRENDS_CUSTOMERS) {
    const created = steps[0]![1];
    for (const [i, [status, at]] of steps.entries()) {
      const customer = serviceCustomer({ id, status, created });
      writes.push({
        at,
        write: () => journal.customers.upsert(customer, { source: i === 0 ? 'created' : 'poll', at }),
      });
    }
    if (goneAt) writes.push({ at: goneAt, write: () => journal.customers.markGone(id) });
  }
  for (const entry of TRENDS_ENTRIES) {
    writes.push({
      at: entry.at,
      write: () =>
        journal.audit.record({
          action: entry.action,
          customerId: entry.customer,
          outcome: 'ok',
          detail: entry.detail?.(names) ?? null,
          actor: names[entry.who],
        }),
    });
  }
  // In time order, the clock at each moment (a stable sort keeps a customer's steps in their order).
  for (const { at, write } of writes.sort((a, b) => a.at.localeCompare(b.at))) {
    now = at;
    await write();
  }
  now = TRENDS_NOW;
  return journal;
}

const DAYS = [
  '2026-10-29',
  '2026-10-30',
  '2026-10-31',
  '2026-11-01',
  '2026-11-02',
  '2026-11-03',
  '2026-11-04',
];
const perDay = (counts: readonly number[]) => DAYS.map((day, i) => ({ day, count: counts[i] }));

/** What the world's week shows, worked out by hand from the history above (the tests' comments say how). */
export const TRENDS_EXPECTED = {
  days: DAYS,
  /** Per section, a count per day (at each day's end). */
  backlog: {
    retry: [1, 1, 1, 0, 0, 0, 0],
    document: [1, 2, 2, 2, 1, 1, 2],
    kba: [1, 0, 1, 1, 1, 0, 0],
    unverified: [1, 1, 0, 0, 0, 0, 0],
    other: [1, 1, 1, 1, 1, 1, 1],
  },
  overdue: { all: perDay([2, 2, 2, 2, 1, 1, 1]), ana: perDay([2, 2, 1, 0, 1, 1, 1]) },
};
