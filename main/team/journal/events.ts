// Webhook events on the team store, unique by the service's id whichever hub or desk records them. The same
// semantics as the SQLite journal's (main/data/journal/events.ts): a delivered duplicate counts itself in
// duplicates_seen, a fetched event already known is left alone.
import { z } from 'zod';
import { toEvent } from '#main/data/journal/events.ts';
import type {
  EventFilter,
  EventsRepository,
  JournalEvent,
  ReceivedEvent,
} from '#main/data/journal/repositories/events.ts';
import { isoTime } from '#main/data/journal/time.ts';
import type { Queryable } from '../store/sql.ts';
import { CountSchema, PgSeq, PgTime, PgTimeOrNull, parseRow, parseRows } from './rows.ts';
import type { TeamRepositoryContext } from './team-db.ts';

const EventRowSchema = z
  .object({
    id: z.string(),
    topic: z.string(),
    resource_id: z.string(),
    customer_id: z.string().nullable(),
    created: PgTime,
    received_at: PgTime,
    signature_verified: z.boolean(),
    duplicates_seen: PgSeq,
    processed_at: PgTimeOrNull,
  })
  .transform((row): JournalEvent => toEvent(row));

const COLUMNS = `id, topic, resource_id, customer_id, created, received_at, signature_verified, duplicates_seen,
  processed_at`;
// Ids and topics sort as bytes, as SQLite's BINARY collation does, whatever the database's locale.
const NEWEST_FIRST = 'ORDER BY received_at DESC, id COLLATE "C" DESC';

export const eventsFromRows = (rows: readonly unknown[]): JournalEvent[] =>
  parseRows(EventRowSchema, 'events', rows);

/** An event to record, as the inbox hands it over. */
export interface EventToRecord {
  event: ReceivedEvent;
  processed: boolean;
  receivedAt: string;
}

/**
 * Records events in ONE statement (a group's deliveries: one round trip to the store, not one each): a first
 * delivery inserts its row; a later one only counts itself, or with `onlyIfAbsent` (fetched events) does
 * nothing and returns no row. Two hubs recording one event at once keep one row. The rows come back in no
 * particular order, and an id may appear only once (PostgreSQL cannot update one row twice in a statement).
 */
export async function recordEvents(
  client: Queryable,
  records: readonly EventToRecord[],
  { onlyIfAbsent = false }: { onlyIfAbsent?: boolean } = {},
): Promise<Array<{ event: JournalEvent; duplicate: boolean }>> {
  const onConflict = onlyIfAbsent
    ? 'DO NOTHING'
    : 'DO UPDATE SET duplicates_seen = vetted.events.duplicates_seen + 1';
  const column = <T>(value: (record: EventToRecord) => T) => records.map(value);
  const { rows } = await client.query(
    `INSERT INTO vetted.events (id, topic, resource_id, customer_id, created, received_at, signature_verified,
       processed_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[],
       $7::boolean[], $8::timestamptz[])
     ON CONFLICT (id) ${onConflict}
     RETURNING ${COLUMNS}`,
    [
      column(({ event }) => event.id),
      column(({ event }) => event.topic),
      column(({ event }) => event.resourceId),
      column(({ event }) => event.customerId ?? null),
      column(({ event, receivedAt }) => isoTime(event.created, receivedAt)),
      column(({ receivedAt }) => receivedAt),
      column(({ event }) => event.signatureVerified),
      column(({ processed, receivedAt }) => (processed ? receivedAt : null)),
    ],
  );
  return eventsFromRows(rows).map((recorded) => ({
    event: recorded,
    duplicate: recorded.duplicatesSeen > 0,
  }));
}

/** Records one event (see `recordEvents`). */
export const recordEvent = (
  client: Queryable,
  event: ReceivedEvent,
  {
    processed = false,
    onlyIfAbsent = false,
    receivedAt,
  }: { processed?: boolean; onlyIfAbsent?: boolean; receivedAt: string },
) => recordEvents(client, [{ event, processed, receivedAt }], { onlyIfAbsent });

/** Marks events processed, keeping the first time they were. */
/** Marks events processed, each at its own time (`ats[i]` for `ids[i]`). */
export async function markEventsProcessed(
  client: Queryable,
  ids: readonly string[],
  ats: readonly string[],
): Promise<void> {
  await client.query(
    `UPDATE vetted.events e SET processed_at = coalesce(e.processed_at, m.at)
     FROM unnest($1::text[], $2::timestamptz[]) AS m (id, at) WHERE e.id = m.id`,
    [ids, ats],
  );
}

export function teamEventsRepository({ db, clock }: TeamRepositoryContext): EventsRepository {
  const now = () => isoTime(clock());
  const select = async (where: string, params: unknown[], tail = '') =>
    eventsFromRows(
      (await db.read.query(`SELECT ${COLUMNS} FROM vetted.events ${where} ${tail}`, params)).rows,
    );
  return {
    async record(event) {
      const [recorded] = await db.write((client) => recordEvent(client, event, { receivedAt: now() }));
      // DO UPDATE always returns the row: a missing one is the database breaking its word.
      if (!recorded) throw new Error(`The team store did not return event ${event.id}.`);
      return recorded;
    },
    async get(id) {
      return (await select('WHERE id = $1', [id]))[0];
    },
    list({ limit = 100, offset = 0 } = {}) {
      return select('', [limit, offset], `${NEWEST_FIRST} LIMIT $1 OFFSET $2`);
    },
    unprocessed() {
      return select('WHERE processed_at IS NULL', [], 'ORDER BY received_at, id COLLATE "C"');
    },
    async markProcessed(id) {
      await db.write((client) => markEventsProcessed(client, [id], [now()]));
    },
    async window(filter, { offset, limit }) {
      const { where, params } = filterClause(filter);
      const counted = await db.read.query(`SELECT count(*) AS n FROM vetted.events ${where}`, params);
      const { n: total } = parseRow(CountSchema, 'events', counted.rows);
      const next = params.length;
      const events = await select(
        where,
        [...params, limit, offset],
        `${NEWEST_FIRST} LIMIT $${next + 1} OFFSET $${next + 2}`,
      );
      return { events, total };
    },
    matching(filter) {
      const { where, params } = filterClause(filter);
      return select(where, params, NEWEST_FIRST);
    },
    async topics() {
      const { rows } = await db.read.query(
        'SELECT DISTINCT topic COLLATE "C" AS topic FROM vetted.events ORDER BY topic',
      );
      return parseRows(z.object({ topic: z.string() }), 'events', rows).map((row) => row.topic);
    },
  };
}

// Each filter is written into the SQL only when given, so that the planner picks the index that serves it.
function filterClause(filter: EventFilter): { where: string; params: string[] } {
  const conditions: string[] = [];
  const params: string[] = [];
  if (filter.topic !== undefined) {
    params.push(filter.topic);
    conditions.push(`topic = $${params.length}`);
  }
  if (filter.customerId !== undefined) {
    params.push(filter.customerId);
    conditions.push(`customer_id = $${params.length}`);
  }
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params };
}
