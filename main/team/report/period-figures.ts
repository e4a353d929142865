// The period report's figures on a team's desk: every statement (period-figures-sql.ts) in one REPEATABLE READ,
// READ ONLY snapshot, so the figures agree with one another and with the audit chain's head they name. This
// file only asks, checks the rows with zod and orders them. Reviewers may read everything these statements
// read; the report is a lead's by the desk's check, as the Team screen is.
import type pg from 'pg';
import { z } from 'zod';
import { FOUR_EYES_DECISIONS } from '#contract/period-report.ts';
import { SECTIONS, type Section, sectionOf } from '#contract/queue.ts';
import { TERMINAL_STATUSES } from '#contract/statuses.ts';
import { NOBODYS_ACTION, NOT_A_FIRST_ACTION } from '#contract/team-overview.ts';
import { dueBefore } from '#main/data/journal/index.ts';
import type {
  PeriodFiguresSource,
  PeriodQuery,
  StoreFigures,
} from '#main/features/team-interfaces/period-report.ts';
import { Count, inSnapshot } from '../claims/snapshot.ts';
import { SectionRowSchema, sectionFigures } from '../claims/team-overview.ts';
import { SECTIONS as SECTION_TIMES } from '../claims/team-overview-sql.ts';
import { PgTime, parseRow, parseRows } from '../journal/rows.ts';
import type { ConnectionTarget } from '../store/connection-error.ts';
import {
  AUDIT_HEAD_AT,
  CLOSED_IN_PERIOD,
  FOUR_EYES,
  OPENED,
  OVERDUE_AT_END,
  PERIOD_BOUNDS,
  REJECTED_DOCUMENTS,
} from './period-figures-sql.ts';

/** The statuses that are a section's own name, and the open ones among them. */
const NAMED_SECTIONS = SECTIONS.filter((section) => sectionOf(section) === section);
const OPEN_SECTIONS = NAMED_SECTIONS.filter(
  (section) => !(TERMINAL_STATUSES as readonly string[]).includes(section),
);
/** How a reviewer brings a customer in: who opened it. */
const BROUGHT_IN = ['customer.create', 'customer.add'] as const;
const REJECTED_TOPIC = 'customer_verification_document_failed';

const BoundsSchema = z.object({ start_at: PgTime, end_at: z.date() });
const CountSchema = z.object({ section: z.enum(SECTIONS), reviewer: z.string().nullable(), count: Count });
const OverdueSchema = z.object({ section: z.enum(['retry', 'document']), overdue: Count });
const FourEyesSchema = z.object({
  kind: z.enum(['retry', 'exportNames']),
  decision: z.enum(FOUR_EYES_DECISIONS),
  count: Count,
});
const DocumentSchema = z.object({ document: z.string() });
const HeadSchema = z.object({ seq: z.number().int().min(0), chain_hash: z.string() });

export interface PeriodFiguresOptions {
  pool: pg.Pool;
  target: ConnectionTarget;
}

export function teamPeriodFigures({ pool, target }: PeriodFiguresOptions): PeriodFiguresSource {
  return {
    async read(query) {
      return inSnapshot(pool, target, (client, now) => readFigures(client, now, query));
    },
  };
}

async function readFigures(client: pg.ClientBase, now: Date, query: PeriodQuery): Promise<StoreFigures> {
  const rows = async <T>(schema: z.ZodType<T>, table: string, sql: string, params: unknown[]) =>
    parseRows(schema, table, (await client.query(sql, params)).rows);
  const bounds = parseRow(
    BoundsSchema,
    'time zone',
    (await client.query(PERIOD_BOUNDS, [query.from, query.to, query.timeZone, now])).rows,
  );
  const end = bounds.end_at.toISOString();
  const period = [end, bounds.start_at];
  const times = await rows(SectionRowSchema, 'status_history', SECTION_TIMES, [
    ...period,
    TERMINAL_STATUSES,
    [...NOT_A_FIRST_ACTION, ...NOBODYS_ACTION],
    OPEN_SECTIONS,
  ]);
  const overdue = await rows(OverdueSchema, 'status_history', OVERDUE_AT_END, [
    end,
    JSON.stringify(dueBefore(query.targets, bounds.end_at)),
  ]);
  const head = await rows(HeadSchema, 'audit_log', AUDIT_HEAD_AT, [end]);
  return {
    from: query.from,
    to: query.to,
    timeZone: query.timeZone,
    startAt: bounds.start_at,
    endAt: end,
    opened: ordered(
      await rows(CountSchema, 'status_history', OPENED, [...period, NAMED_SECTIONS, BROUGHT_IN]),
    ),
    closed: ordered(
      await rows(CountSchema, 'status_history', CLOSED_IN_PERIOD, [
        ...period,
        TERMINAL_STATUSES,
        NOBODYS_ACTION,
        OPEN_SECTIONS,
      ]),
    ),
    times: sectionFigures(times),
    overdue: (['retry', 'document'] as const).map((section) => ({
      section,
      count: overdue.find((row) => row.section === section)?.overdue ?? 0,
    })),
    fourEyes: (await rows(FourEyesSchema, 'approvals', FOUR_EYES, period)).sort(
      (a, b) => a.kind.localeCompare(b.kind) || a.decision.localeCompare(b.decision),
    ),
    rejectedDocuments: (
      await rows(DocumentSchema, 'events', REJECTED_DOCUMENTS, [...period, REJECTED_TOPIC])
    ).map((row) => row.document),
    auditHead: head[0] ? { seq: head[0].seq, chainHash: head[0].chain_hash } : null,
  };
}

const order = (section: Section) => SECTIONS.indexOf(section);

/** By section in the queue's order, then by reviewer (nobody's last). */
function ordered<T extends { section: Section; reviewer: string | null }>(items: T[]): T[] {
  return items.sort(
    (a, b) =>
      order(a.section) - order(b.section) || (a.reviewer ?? '\uffff').localeCompare(b.reviewer ?? '\uffff'),
  );
}
