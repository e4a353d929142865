// The audit log: every reviewer action, what, which customer, when, outcome. Append-only (triggers in the
// schema refuse UPDATE and DELETE). Never personal data: callers write ids, statuses and error codes.
import type { Statements, Sync } from './db.ts';
import { type Clock, isoTime } from './time.ts';

export interface AuditInput {
  /** What was done, e.g. `customer.create`, `customer.retry`, `document.upload`. */
  action: string;
  customerId?: string | null;
  /** e.g. `ok`, `failed`, `refused`. */
  outcome: string;
  /** A short, non-personal detail: an error code, a draft id, a status. */
  detail?: string | null;
}

export interface AuditEntry {
  seq: number;
  at: string;
  action: string;
  customerId: string | null;
  outcome: string;
  detail: string | null;
}

export interface AuditRepository {
  record(entry: AuditInput): Promise<AuditEntry>;
  /** Newest first; one customer's entries when `customerId` is given. */
  list(query?: { customerId?: string; limit?: number; offset?: number }): Promise<AuditEntry[]>;
}

interface AuditRow {
  seq: number;
  at: string;
  action: string;
  customer_id: string | null;
  outcome: string;
  detail: string | null;
}

export function auditRepository(sql: Statements, clock: Clock): Sync<AuditRepository> {
  return {
    record({ action, customerId = null, outcome, detail = null }) {
      const row = sql.get<AuditRow>(
        `INSERT INTO audit_log (at, action, customer_id, outcome, detail)
         VALUES (:at, :action, :customerId, :outcome, :detail) RETURNING *`,
        { at: isoTime(clock()), action, customerId, outcome, detail },
      );
      return toEntry(row!);
    },
    list({ customerId, limit = 100, offset = 0 } = {}) {
      const page = { limit, offset };
      const rows =
        customerId === undefined
          ? sql.all<AuditRow>('SELECT * FROM audit_log ORDER BY seq DESC LIMIT :limit OFFSET :offset', page)
          : sql.all<AuditRow>(
              `SELECT * FROM audit_log WHERE customer_id = :customerId ORDER BY seq DESC
               LIMIT :limit OFFSET :offset`,
              { ...page, customerId },
            );
      return rows.map(toEntry);
    },
  };
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    at: row.at,
    action: row.action,
    customerId: row.customer_id,
    outcome: row.outcome,
    detail: row.detail,
  };
}
