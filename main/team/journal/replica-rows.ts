// Reading the team store's changes for a desk's replica: one page of every change after a number, across the
// four replicated tables, decrypted with the team key and checked with zod (the database is a boundary:
// another desk, another version, or an administrator's hand wrote what it holds).
import { z } from 'zod';
import { JournalError } from '../../journal/errors.ts';
import { notePlace } from '../../journal/notes.ts';
import {
  AddressSchema,
  customerPlace,
  type PersonalCipher,
  type PersonalPlace,
} from '../../journal/personal.ts';
import type { ReplicaChanges, ReplicaCustomer } from '../../journal/replica.ts';
import type { Queryable } from '../store/sql.ts';
import { PgSeq, PgText, PgTime, PgTimeOrNull, parseRows } from './rows.ts';

/** A page of changes: `through` is the highest change number it covers; `more` if a page may follow. */
export interface ChangesPage {
  changes: ReplicaChanges & { through: number };
  more: boolean;
}

const CustomerRowSchema = z.object({
  id: z.string(),
  seq: PgSeq,
  status: PgText,
  status_since: PgTime,
  created: PgTime,
  last_refreshed: PgTime,
  changed_at: PgTime,
  gone_at: PgTimeOrNull,
  pending_documents: z.number().int().nonnegative(),
  profile: z.string(),
  personal: z.string().nullable(),
  reported: z.string().nullable(),
});

const ProfileSchema = z.object({
  url: z.string(),
  name: z.string(),
  email: z.string(),
  type: z.string(),
  links: z.record(
    z.string(),
    z.object({ href: z.string(), type: z.string().optional(), 'resource-type': z.string().optional() }),
  ),
  note: z.string().nullable().optional(),
});

const PersonalSchema = z.object({ address: AddressSchema, dateOfBirth: z.string(), ssnLastFour: z.string() });
const ReportedSchema = z.record(z.string(), z.unknown());

const HistoryRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  status: PgText,
  at: PgTime,
  source: z.enum(['created', 'poll', 'event']),
  event_id: z.string().nullable(),
});

const NoteRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  at: PgTime,
  author: z.string(),
  body: z.string(),
});

const RetryRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  used_at: PgTime,
  outcome: z.string().nullable(),
  released: z.boolean(),
});

// The page's end: the `limit`-th change number after `after` over the four tables (each read from its index
// on seq, merged in order). A customer or retry rewritten by a later change has left this range for a later one.
const PAGE_END = `
SELECT max(seq) AS through, count(*)::int AS n FROM (
  SELECT seq FROM (
    SELECT seq FROM vetted.customers WHERE seq > $1
    UNION ALL SELECT seq FROM vetted.status_history WHERE seq > $1
    UNION ALL SELECT seq FROM vetted.notes WHERE seq > $1
    UNION ALL SELECT seq FROM vetted.retries WHERE seq > $1
  ) AS changed ORDER BY seq LIMIT $2
) AS page`;

/**
 * Reads one page of changes after `after`. Run it in one REPEATABLE READ transaction (`client` inside it), so
 * that its reads see one moment of the store. History and retries need their customer locally: a customer
 * that a later change rewrote (so past this page) comes along with them, in its newest state; one at or
 * before `after` is in the replica already (every change up to `after` was applied).
 */
export async function readChangesPage(
  client: Queryable,
  cipher: PersonalCipher,
  after: number,
  limit: number,
): Promise<ChangesPage> {
  const end = await client.query<{ through: string | null; n: number }>(PAGE_END, [after, limit]);
  const through = end.rows[0]?.through == null ? after : Number(end.rows[0].through);
  const more = (end.rows[0]?.n ?? 0) >= limit;
  if (through === after) return { changes: { through }, more: false };
  const range = [after, through];
  // One after another: a transaction's client runs one statement at a time.
  const history = await rows(client, HistoryRowSchema, 'status_history', 'seq > $1 AND seq <= $2', range);
  const notes = await rows(client, NoteRowSchema, 'notes', 'seq > $1 AND seq <= $2', range);
  const retries = await rows(client, RetryRowSchema, 'retries', 'seq > $1 AND seq <= $2', range);
  const referenced = [...new Set([...history, ...retries].map((row) => row.customer_id))];
  const customers = await rows(
    client,
    CustomerRowSchema,
    'customers',
    '(seq > $1 AND seq <= $2) OR (seq > $2 AND id = ANY($3))',
    [...range, referenced],
  );
  return {
    more,
    changes: {
      through,
      customers: customers.map((row) => customerFromRow(row, cipher)),
      statusHistory: history.map((row) => ({
        seq: row.seq,
        customerId: row.customer_id,
        status: row.status,
        at: row.at,
        source: row.source,
        eventId: row.event_id,
      })),
      notes: notes.map((row) => ({
        seq: row.seq,
        customerId: row.customer_id,
        at: row.at,
        author: row.author,
        text: cipher.open(notePlace(row.seq), row.body),
      })),
      retries: retries.map((row) => ({
        seq: row.seq,
        customerId: row.customer_id,
        usedAt: row.used_at,
        outcome: row.outcome,
        released: row.released,
      })),
    },
  };
}

const COLUMNS: Record<string, string> = {
  // Only what the replica keeps (not who wrote a retry, say).
  customers: `id, seq, status, status_since, created, last_refreshed, changed_at, gone_at, pending_documents,
    profile, personal, reported`,
  status_history: 'seq, customer_id, status, at, source, event_id',
  notes: 'seq, customer_id, at, author, body',
  retries: 'seq, customer_id, used_at, outcome, released',
};

async function rows<T>(
  client: Queryable,
  schema: z.ZodType<T>,
  table: keyof typeof COLUMNS,
  where: string,
  params: unknown[],
): Promise<T[]> {
  const { rows: found } = await client.query(
    `SELECT ${COLUMNS[table]} FROM vetted.${table} WHERE ${where} ORDER BY seq`,
    params,
  );
  return parseRows(schema, table, found);
}

/** Opens a sealed JSON column and checks what it holds. */
function openJson<T>(cipher: PersonalCipher, place: PersonalPlace, token: string, schema: z.ZodType<T>): T {
  const plaintext = cipher.open(place, token);
  let value: unknown;
  try {
    value = JSON.parse(plaintext);
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // Never the value itself, nor JSON.parse's message quoting it: it is personal data.
  throw new JournalError(
    `The team store's ${place.column} of ${place.table} ${place.id} is not in the form this Vetted reads.`,
  );
}

function customerFromRow(row: z.infer<typeof CustomerRowSchema>, cipher: PersonalCipher): ReplicaCustomer {
  const profile = openJson(cipher, customerPlace(row.id, 'profile'), row.profile, ProfileSchema);
  return {
    seq: row.seq,
    id: row.id,
    url: profile.url,
    name: profile.name,
    email: profile.email,
    type: profile.type,
    status: row.status,
    statusSince: row.status_since,
    created: row.created,
    lastRefreshed: row.last_refreshed,
    changedAt: row.changed_at,
    goneAt: row.gone_at,
    pendingDocuments: row.pending_documents,
    links: profile.links,
    note: profile.note ?? null,
    personal: row.personal
      ? openJson(cipher, customerPlace(row.id, 'personal'), row.personal, PersonalSchema)
      : null,
    reported: row.reported
      ? openJson(cipher, customerPlace(row.id, 'reported'), row.reported, ReportedSchema)
      : null,
  };
}
