// Webhook events as received, deduplicated by the service's event id. Events carry no personal data.
import type { Statements } from './db.ts';
import { type Clock, isoTime } from './time.ts';

export interface ReceivedEvent {
  id: string;
  topic: string;
  resourceId: string;
  customerId?: string | null;
  /** The event's own time, from the service. */
  created: string;
  signatureVerified: boolean;
}

export interface JournalEvent {
  id: string;
  topic: string;
  resourceId: string;
  customerId: string | null;
  created: string;
  receivedAt: string;
  signatureVerified: boolean;
  /** Deliveries of the same event after the first. */
  duplicatesSeen: number;
  processedAt: string | null;
}

export interface EventsRepository {
  /** Records an event once; a redelivery only counts as a duplicate. */
  record(event: ReceivedEvent): { event: JournalEvent; duplicate: boolean };
  get(id: string): JournalEvent | undefined;
  /** Newest first. */
  list(page?: { limit?: number; offset?: number }): JournalEvent[];
  /** Recorded but not yet reconciled, oldest first: what a restart must finish. */
  unprocessed(): JournalEvent[];
  markProcessed(id: string): void;
}

interface EventRow {
  id: string;
  topic: string;
  resource_id: string;
  customer_id: string | null;
  created: string;
  received_at: string;
  signature_verified: number;
  duplicates_seen: number;
  processed_at: string | null;
}

export function eventsRepository(sql: Statements, clock: Clock): EventsRepository {
  const now = () => isoTime(clock());
  const get = (id: string) => {
    const row = sql.get<EventRow>('SELECT * FROM events WHERE id = :id', { id });
    return row && toEvent(row);
  };
  return {
    record(event) {
      const receivedAt = now();
      // A first delivery inserts with no duplicates; any later one only counts itself.
      const row = sql.get<EventRow>(
        `INSERT INTO events (id, topic, resource_id, customer_id, created, received_at, signature_verified)
         VALUES (:id, :topic, :resourceId, :customerId, :created, :receivedAt, :verified)
         ON CONFLICT (id) DO UPDATE SET duplicates_seen = duplicates_seen + 1
         RETURNING *`,
        {
          id: event.id,
          topic: event.topic,
          resourceId: event.resourceId,
          customerId: event.customerId ?? null,
          created: isoTime(event.created, receivedAt),
          receivedAt,
          verified: event.signatureVerified ? 1 : 0,
        },
      )!;
      return { event: toEvent(row), duplicate: row.duplicates_seen > 0 };
    },
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
    markProcessed(id) {
      sql.run('UPDATE events SET processed_at = coalesce(processed_at, :at) WHERE id = :id', {
        id,
        at: now(),
      });
    },
  };
}

function toEvent(row: EventRow): JournalEvent {
  return {
    id: row.id,
    topic: row.topic,
    resourceId: row.resource_id,
    customerId: row.customer_id,
    created: row.created,
    receivedAt: row.received_at,
    signatureVerified: row.signature_verified === 1,
    duplicatesSeen: row.duplicates_seen,
    processedAt: row.processed_at,
  };
}
