// The team's audit log: every reviewer action, append-only (INSERT-only grants, and the schema's triggers
// refuse UPDATE, DELETE and TRUNCATE). Who did it is the database login, stamped by the trigger from
// session_user: whatever a caller claims in `actor` is not written (RETURNING gives back what was stamped).
import { z } from 'zod';
import { toEntry } from '../../journal/audit.ts';
import type { AuditEntry, AuditFilter, AuditRepository } from '../../journal/repositories/audit.ts';
import { isoTime } from '../../journal/time.ts';
import { CountSchema, PgSeq, PgTime, parseRow, parseRows } from './rows.ts';
import type { TeamRepositoryContext } from './team-db.ts';

const AuditRowSchema = z
  .object({
    seq: PgSeq,
    at: PgTime,
    actor: z.string(),
    action: z.string(),
    customer_id: z.string().nullable(),
    outcome: z.string(),
    detail: z.string().nullable(),
  })
  .transform((row): AuditEntry => toEntry(row));

const COLUMNS = 'seq, at, actor, action, customer_id, outcome, detail';

const CONDITIONS: Record<keyof AuditFilter, string> = {
  actor: 'actor = $',
  action: 'action = $',
  customerId: 'customer_id = $',
  from: 'at >= $',
  to: 'at < $',
};

function whereOf(filter: AuditFilter): { where: string; params: string[] } {
  const params: string[] = [];
  const conditions: string[] = [];
  for (const [key, condition] of Object.entries(CONDITIONS) as [keyof AuditFilter, string][]) {
    const value = filter[key];
    if (value === undefined) continue;
    params.push(key === 'from' || key === 'to' ? isoTime(value) : value);
    conditions.push(`${condition}${params.length}`);
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

export function teamAuditRepository({ db, clock }: TeamRepositoryContext): AuditRepository {
  return {
    async record({ action, customerId = null, outcome, detail = null }) {
      const { rows } = await db.write((client) =>
        client.query(
          `INSERT INTO vetted.audit_log (at, action, customer_id, outcome, detail)
           VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
          [isoTime(clock()), action, customerId, outcome, detail],
        ),
      );
      return parseRow(AuditRowSchema, 'audit_log', rows);
    },
    async list({ limit = 100, offset = 0, ...filter } = {}) {
      const { where, params } = whereOf(filter);
      const next = params.length;
      const { rows } = await db.read.query(
        `SELECT ${COLUMNS} FROM vetted.audit_log ${where} ORDER BY seq DESC LIMIT $${next + 1} OFFSET $${next + 2}`,
        [...params, limit, offset],
      );
      return parseRows(AuditRowSchema, 'audit_log', rows);
    },
    async count(filter = {}) {
      const { where, params } = whereOf(filter);
      const { rows } = await db.read.query(`SELECT count(*) AS n FROM vetted.audit_log ${where}`, params);
      return parseRow(CountSchema, 'audit_log', rows).n;
    },
    async facets() {
      // Sorted as bytes, as the SQLite journal's are, whatever the database's locale.
      const distinct = async (column: 'actor' | 'action') => {
        const { rows } = await db.read.query(
          `SELECT DISTINCT ${column} COLLATE "C" AS value FROM vetted.audit_log ORDER BY value`,
        );
        return parseRows(z.object({ value: z.string() }), 'audit_log', rows).map(({ value }) => value);
      };
      const [actors, actions] = await Promise.all([distinct('actor'), distinct('action')]);
      return { actors: actors.filter(Boolean), actions };
    },
  };
}
