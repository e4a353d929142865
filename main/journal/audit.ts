// The audit log: every reviewer action, who, what, which customer, when, outcome. Append-only: this
// repository has no update or delete, and triggers in the schema refuse UPDATE and DELETE. Never personal
// data beyond what a reviewer typed as a reason: callers write ids, statuses, error codes and reasons.
import type { Params, Statements, Sync } from './db.ts';
import type { AuditEntry, AuditFilter, AuditRepository } from './repositories/audit.ts';
import { type Clock, isoTime } from './time.ts';

/** An audit_log row; the team store's too, once its times are ISO text. */
export interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  customer_id: string | null;
  outcome: string;
  detail: string | null;
}

const COLUMNS: Record<keyof AuditFilter, string> = {
  actor: 'actor = :actor',
  action: 'action = :action',
  customerId: 'customer_id = :customerId',
  from: 'at >= :from',
  to: 'at < :to',
};

function whereOf(filter: AuditFilter): { where: string; params: Params } {
  const params: Params = {};
  const conditions: string[] = [];
  for (const [key, condition] of Object.entries(COLUMNS) as [keyof AuditFilter, string][]) {
    const value = filter[key];
    if (value === undefined) continue;
    conditions.push(condition);
    params[key] = key === 'from' || key === 'to' ? isoTime(value) : value;
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

export function auditRepository(sql: Statements, clock: Clock, actor: string): Sync<AuditRepository> {
  return {
    record({ action, customerId = null, outcome, detail = null, actor: who = actor }) {
      const row = sql.get<AuditRow>(
        `INSERT INTO audit_log (at, actor, action, customer_id, outcome, detail)
         VALUES (:at, :actor, :action, :customerId, :outcome, :detail) RETURNING *`,
        { at: isoTime(clock()), actor: who, action, customerId, outcome, detail },
      );
      return toEntry(row!);
    },
    list({ limit = 100, offset = 0, ...filter } = {}) {
      const { where, params } = whereOf(filter);
      return sql
        .all<AuditRow>(`SELECT * FROM audit_log ${where} ORDER BY seq DESC LIMIT :limit OFFSET :offset`, {
          ...params,
          limit,
          offset,
        })
        .map(toEntry);
    },
    count(filter = {}) {
      const { where, params } = whereOf(filter);
      return sql.get<{ n: number }>(`SELECT count(*) AS n FROM audit_log ${where}`, params)?.n ?? 0;
    },
    facets() {
      const distinct = (column: 'actor' | 'action') =>
        sql
          .all<{ value: string }>(`SELECT DISTINCT ${column} AS value FROM audit_log ORDER BY value`)
          .map(({ value }) => value);
      return { actors: distinct('actor').filter(Boolean), actions: distinct('action') };
    },
  };
}

export function toEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    at: row.at,
    actor: row.actor,
    action: row.action,
    customerId: row.customer_id,
    outcome: row.outcome,
    detail: row.detail,
  };
}
