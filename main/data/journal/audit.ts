// The audit log: every reviewer action, who, what, which customer, when, outcome. Append-only: this
// repository has no update or delete, and triggers in the schema refuse UPDATE and DELETE. A hash chain,
// sealed (audit-chain.ts): each entry is linked to the chain's head as it is written, and the schema's
// triggers refuse an entry that does not follow the head. Never personal data beyond what a reviewer typed
// as a reason: callers write ids, statuses, error codes and reasons.
import { type AuditSealer, linkAfter } from './audit-chain.ts';
import type { Params, Statements, Sync } from './db.ts';
import type {
  AuditEntry,
  AuditFilter,
  AuditHead,
  AuditRepository,
  LinkedAuditEntry,
} from './repositories/audit.ts';
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

/** A row with its chain columns. */
export interface LinkedAuditRow extends AuditRow {
  hash_version: number;
  prev_hash: string;
  content_hash: string;
  chain_hash: string;
  seal: string;
}

const CONDITIONS: Record<keyof AuditFilter, string> = {
  actor: 'actor = :actor',
  action: 'action = :action',
  customerId: 'customer_id = :customerId',
  from: 'at >= :from',
  to: 'at < :to',
};

function whereOf(filter: AuditFilter, more: string[] = []): { where: string; params: Params } {
  const params: Params = {};
  const conditions: string[] = [];
  for (const [key, condition] of Object.entries(CONDITIONS) as [keyof AuditFilter, string][]) {
    const value = filter[key];
    if (value === undefined) continue;
    conditions.push(condition);
    params[key] = key === 'from' || key === 'to' ? isoTime(value) : value;
  }
  conditions.push(...more);
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

export function auditRepository(
  sql: Statements,
  clock: Clock,
  actor: string,
  sealer: AuditSealer,
): Sync<AuditRepository> {
  return {
    record({ action, customerId = null, outcome, detail = null, actor: who = actor }) {
      // One statement, on the journal's one connection: nothing is appended between reading the head and this
      // insert, and the insert's trigger moves the head on in the same statement.
      const head = sql.get<{ seq: number; chain_hash: string }>('SELECT seq, chain_hash FROM audit_head')!;
      const entry = {
        seq: head.seq + 1,
        at: isoTime(clock()),
        actor: who,
        action,
        customerId,
        outcome,
        detail,
      };
      const row = sql.get<AuditRow>(
        `INSERT INTO audit_log (seq, at, actor, action, customer_id, outcome, detail, hash_version, prev_hash,
           content_hash, chain_hash, seal)
         VALUES (:seq, :at, :actor, :action, :customerId, :outcome, :detail, :version, :prevHash, :contentHash,
           :chainHash, :seal) RETURNING *`,
        { ...entry, ...linkAfter(head.chain_hash, entry, sealer) },
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
    linked({ afterSeq = 0, upToSeq = Number.MAX_SAFE_INTEGER, limit, ...filter }) {
      const { where, params } = whereOf(filter, ['seq > :afterSeq', 'seq <= :upToSeq']);
      return sql
        .all<LinkedAuditRow>(`SELECT * FROM audit_log ${where} ORDER BY seq LIMIT :limit`, {
          ...params,
          afterSeq,
          upToSeq,
          limit,
        })
        .map(toLinkedEntry);
    },
    head(): AuditHead {
      const head = sql.get<{ seq: number; chain_hash: string; seal: string | null }>(
        'SELECT h.seq, h.chain_hash, a.seal FROM audit_head h LEFT JOIN audit_log a ON a.seq = h.seq',
      )!;
      return { seq: head.seq, chainHash: head.chain_hash, seal: head.seal, keyCheck: sealer.keyCheck };
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

export function toLinkedEntry(row: LinkedAuditRow): LinkedAuditEntry {
  return {
    ...toEntry(row),
    link: {
      version: row.hash_version,
      prevHash: row.prev_hash,
      contentHash: row.content_hash,
      chainHash: row.chain_hash,
      seal: row.seal,
    },
  };
}
