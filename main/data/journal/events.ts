// Webhook events as received, deduplicated by the service's event id. Events carry no personal data.
import type { Params, Statements, Sync } from './db.ts';
import type { EventFilter, EventsRepository, JournalEvent, ReceivedEvent } from './repositories/events.ts';
import { type Clock, isoTime } from './time.ts';

/**
 * The SQLite journal's event writes as SQL text, applied in groups behind the webhook inbox's log
 * (event-inbox.ts): each returns the rows of `RETURNING *`.
 */
export interface EventStatements {
  /** `record`, or with `onlyIfAbsent` nothing at all for a known event (no duplicate counted). */
  record(
    event: ReceivedEvent,
    options?: { processed?: boolean; onlyIfAbsent?: boolean; receivedAt?: string },
  ): WriteStatement;
  markProcessed(ids: readonly string[]): WriteStatement;
}

/** SQL and its named parameters, to run on another connection to the journal. */
export interface WriteStatement {
  sql: string;
  params: Params;
}

/** An events row; the team store's too (its flag a boolean, its times ISO text). */
export interface EventRow {
  id: string;
  topic: string;
  resource_id: string;
  customer_id: string | null;
  created: string;
  received_at: string;
  signature_verified: number | boolean;
  duplicates_seen: number;
  processed_at: string | null;
}

export function eventStatements(clock: Clock): EventStatements {
  const now = () => isoTime(clock());
  return {
    record(event, { processed = false, onlyIfAbsent = false, receivedAt = now() } = {}) {
      // A first delivery inserts with no duplicates; any later one only counts itself.
      const onConflict = onlyIfAbsent ? 'DO NOTHING' : 'DO UPDATE SET duplicates_seen = duplicates_seen + 1';
      return {
        sql: `INSERT INTO events (id, topic, resource_id, customer_id, created, received_at, signature_verified,
                processed_at)
              VALUES (:id, :topic, :resourceId, :customerId, :created, :receivedAt, :verified, :processedAt)
              ON CONFLICT (id) ${onConflict}
              RETURNING *`,
        params: {
          id: event.id,
          topic: event.topic,
          resourceId: event.resourceId,
          customerId: event.customerId ?? null,
          created: isoTime(event.created, receivedAt),
          receivedAt,
          verified: event.signatureVerified ? 1 : 0,
          processedAt: processed ? receivedAt : null,
        },
      };
    },
    markProcessed(ids) {
      return {
        sql: `UPDATE events SET processed_at = coalesce(processed_at, :at)
              WHERE id IN (SELECT value FROM json_each(:ids))`,
        params: { ids: JSON.stringify(ids), at: now() },
      };
    },
  };
}

/** An event from a row the statements returned. */
export const eventFromRow = (row: unknown): JournalEvent => toEvent(row as EventRow);

/** What `record` statements returned, as the inbox answers it: each event, and whether it was seen before. */
export const recordedEvents = (rows: ReadonlyArray<readonly unknown[]>) =>
  rows.flat().map((row) => {
    const event = eventFromRow(row);
    return { event, duplicate: event.duplicatesSeen > 0 };
  });

export function eventsRepository(
  sql: Statements,
  clock: Clock,
): Sync<EventsRepository> & { statements: EventStatements; fromRow(row: unknown): JournalEvent } {
  const statements = eventStatements(clock);
  const get = (id: string) => {
    const row = sql.get<EventRow>('SELECT * FROM events WHERE id = :id', { id });
    return row && toEvent(row);
  };
  return {
    record(event) {
      const { sql: text, params } = statements.record(event);
      const row = sql.get<EventRow>(text, params)!;
      return { event: toEvent(row), duplicate: row.duplicates_seen > 0 };
    },
    statements,
    fromRow: eventFromRow,
    get,
    list({ limit = 100, offset = 0 } = {}) {
      return sql
        .all<EventRow>(
          'SELECT * FROM events ORDER BY received_at DESC, id DESC LIMIT :limit OFFSET :offset',
          {
            limit,
            offset,
          },
        )
        .map(toEvent);
    },
    unprocessed() {
      return sql
        .all<EventRow>('SELECT * FROM events WHERE processed_at IS NULL ORDER BY received_at, id')
        .map(toEvent);
    },
    window(filter, { offset, limit }) {
      const { where, params } = filterClause(filter);
      const total = sql.get<{ n: number }>(`SELECT count(*) AS n FROM events ${where}`, params)?.n ?? 0;
      const rows = sql.all<EventRow>(
        `SELECT * FROM events ${where} ORDER BY received_at DESC, id DESC LIMIT :limit OFFSET :offset`,
        { ...params, limit, offset },
      );
      return { events: rows.map(toEvent), total };
    },
    matching(filter) {
      const { where, params } = filterClause(filter);
      return sql
        .all<EventRow>(`SELECT * FROM events ${where} ORDER BY received_at DESC, id DESC`, params)
        .map(toEvent);
    },
    topics() {
      return sql
        .all<{ topic: string }>('SELECT DISTINCT topic FROM events ORDER BY topic')
        .map((r) => r.topic);
    },
    markProcessed(id) {
      const { sql: text, params } = statements.markProcessed([id]);
      sql.run(text, params);
    },
  };
}

// Each filter is written into the SQL only when given, so that SQLite picks the index that serves it.
function filterClause(filter: EventFilter): { where: string; params: Record<string, string> } {
  const conditions: string[] = [];
  const params: Record<string, string> = {};
  if (filter.topic !== undefined) {
    conditions.push('topic = :topic');
    params.topic = filter.topic;
  }
  if (filter.customerId !== undefined) {
    conditions.push('customer_id = :customerId');
    params.customerId = filter.customerId;
  }
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

export function toEvent(row: EventRow): JournalEvent {
  return {
    id: row.id,
    topic: row.topic,
    resourceId: row.resource_id,
    customerId: row.customer_id,
    created: row.created,
    receivedAt: row.received_at,
    signatureVerified: row.signature_verified === 1 || row.signature_verified === true,
    duplicatesSeen: row.duplicates_seen,
    processedAt: row.processed_at,
  };
}
