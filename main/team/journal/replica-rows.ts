// Reading the team store's changes for a desk's replica: one page of every change after a number, across the
// five replicated tables, decrypted with the team key and checked with zod (the database is a boundary:
// another desk, another version, or an administrator's hand wrote what it holds).
import { z } from 'zod';
import { CLAIM_HOWS } from '../../../contract/claims.ts';
import { claimNotePlace, type ReplicaClaim } from '../../journal/claims.ts';
import type { PersonalCipher } from '../../journal/personal.ts';
import type { ReplicaChanges } from '../../journal/replica.ts';
import type { Queryable } from '../store/sql.ts';
import { CUSTOMER_COLUMNS, CustomerRowSchema, replicaCustomerOf } from './customer-row.ts';
import { NOTE_COLUMNS, NoteRowSchema, noteOf } from './notes.ts';
import { camelKeys, PgSeq, PgText, PgTime, PgTimeOrNull, parseRows } from './rows.ts';

/** A page of changes: `through` is the highest change number it covers; `more` if a page may follow. */
export interface ChangesPage {
  changes: ReplicaChanges & { through: number };
  more: boolean;
}

const HistoryRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  status: PgText,
  at: PgTime,
  source: z.enum(['created', 'poll', 'event']),
  event_id: z.string().nullable(),
});

const RetryRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  used_at: PgTime,
  outcome: z.string().nullable(),
  released: z.boolean(),
});

const ClaimRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  holder: z.string().nullable(),
  since: PgTimeOrNull,
  how: z.enum(CLAIM_HOWS),
  changed_by: z.string(),
  changed_at: PgTime,
  note: z.string().nullable(),
});

/** A claim row as the replica takes it: its note opened with the team key. */
function claimOf(cipher: PersonalCipher, row: z.infer<typeof ClaimRowSchema>): ReplicaClaim {
  const { note, ...rest } = camelKeys(row);
  return { ...rest, note: note === null ? null : cipher.open(claimNotePlace(row.customer_id), note) };
}

// The page's end: the `limit`-th change number after `after` over the five tables (each read from its index
// on seq, merged in order). A customer or retry rewritten by a later change has left this range for a later one.
const PAGE_END = `
SELECT max(seq) AS through, count(*)::int AS n FROM (
  SELECT seq FROM (
    SELECT seq FROM vetted.customers WHERE seq > $1
    UNION ALL SELECT seq FROM vetted.status_history WHERE seq > $1
    UNION ALL SELECT seq FROM vetted.notes WHERE seq > $1
    UNION ALL SELECT seq FROM vetted.retries WHERE seq > $1
    UNION ALL SELECT seq FROM vetted.claims WHERE seq > $1
  ) AS changed ORDER BY seq LIMIT $2
) AS page`;

/**
 * Reads one page of changes after `after`. Run it in one REPEATABLE READ transaction (`client` inside it), so
 * that its reads see one moment of the store. History, retries and claims need their customer locally: a customer
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
  const claims = await rows(client, ClaimRowSchema, 'claims', 'seq > $1 AND seq <= $2', range);
  const referenced = [...new Set([...history, ...retries, ...claims].map((row) => row.customer_id))];
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
      customers: customers.map((row) => replicaCustomerOf(row, cipher)),
      statusHistory: history.map(camelKeys),
      notes: notes.map((row) => noteOf(cipher, row)),
      retries: retries.map(camelKeys),
      claims: claims.map((row) => claimOf(cipher, row)),
    },
  };
}

const COLUMNS: Record<string, string> = {
  // Only what the replica keeps (not who wrote a retry, say); customers as the team journal reads them.
  customers: CUSTOMER_COLUMNS,
  status_history: 'seq, customer_id, status, at, source, event_id',
  notes: NOTE_COLUMNS,
  retries: 'seq, customer_id, used_at, outcome, released',
  // Who holds a case, not until when: a holder's action moves the expiry without a change number.
  claims: 'seq, customer_id, holder, since, how, changed_by, changed_at, note',
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
