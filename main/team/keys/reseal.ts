// Resealing: every sealed value of the team store opened with the key it names and sealed again with the
// current data key, a batch at a time, each batch a short transaction of its own (desks keep working: rows a
// desk holds locked are skipped and met by the next pass). Nothing is remembered between runs but the rows
// themselves (each value names its key), so a reseal killed at any point is resumed by running it again.
// Only once no value in the store names a retired key are the retired data keys deleted, in a transaction
// that holds writers off the sealed tables while it checks: no row is ever left sealed under a key the store
// no longer holds. From then on a copy of the store cannot be opened with a team key a rotation replaced.
import type pg from 'pg';
import { claimNotePlace } from '#main/data/journal/claims.ts';
import { notePlace } from '#main/data/journal/notes.ts';
import { customerPlace, type FieldSealer, personalAad } from '#main/data/journal/personal.ts';
import { approvalPlace } from '../approvals/team-approvals.ts';
import { formPlace } from '../outbox/rows.ts';
import type { Queryable } from '../store/sql.ts';
import { subscriptionSecretAad } from '../subscription-secrets.ts';
import { type KeyRing, LEGACY_KEY_ID, loadKeyRing, ringFields } from './key-ring.ts';

interface SealedTable {
  table: string;
  key: string;
  /** The key column's type: the batch's UPDATE matches on it as it is, so its index serves. */
  keyType: 'text' | 'bigint' | 'uuid';
  columns: readonly string[];
  aad(key: string, column: string): string;
}

/** Every sealed column of the team store, and the AAD each value was sealed for. */
export const SEALED_TABLES: readonly SealedTable[] = [
  {
    table: 'customers',
    key: 'id',
    keyType: 'text',
    columns: ['profile', 'personal', 'reported'],
    aad: (id, column) => personalAad(customerPlace(id, column)),
  },
  {
    table: 'notes',
    key: 'seq',
    keyType: 'bigint',
    columns: ['body'],
    aad: (seq) => personalAad(notePlace(Number(seq))),
  },
  {
    table: 'team_outbox',
    key: 'draft_id',
    keyType: 'text',
    columns: ['form'],
    aad: (id) => personalAad(formPlace(id)),
  },
  {
    table: 'claims',
    key: 'customer_id',
    keyType: 'text',
    columns: ['note'],
    aad: (id) => personalAad(claimNotePlace(id)),
  },
  {
    table: 'webhook_secrets',
    key: 'subscription_id',
    keyType: 'text',
    columns: ['secret'],
    aad: subscriptionSecretAad,
  },
  {
    table: 'approvals',
    key: 'id',
    keyType: 'uuid',
    columns: ['payload', 'note'],
    aad: (id, column) => personalAad(approvalPlace(id, column as 'payload' | 'note')),
  },
];

/** SQL true for a row with a value not sealed under the current key (`$1` is `<current id>:`). */
const stale = (columns: readonly string[], param = '$1') =>
  columns.map((column) => `(${column} IS NOT NULL AND NOT starts_with(${column}, ${param}))`).join(' OR ');

export interface ResealOptions {
  /** Rows per transaction. */
  batch?: number;
  /** Told after each committed batch how many values it resealed. */
  onBatch?(values: number): void;
}

/** Reseals one batch of `table` after `after` (its key, as text); answers the last key seen, or null at the end. */
async function resealBatch(
  client: pg.ClientBase,
  spec: SealedTable,
  ring: KeyRing,
  after: string | null,
  batch: number,
): Promise<{ last: string | null; values: number }> {
  const fields: FieldSealer = ringFields(() => ring);
  const { table, key, columns } = spec;
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<Record<string, string | null>>(
      `SELECT ${key}::text AS key, ${columns.join(', ')} FROM vetted.${table}
        WHERE (${stale(columns)}) ${after === null ? '' : `AND ${key} > $3`}
        ORDER BY ${key} LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [`${ring.current}:`, batch, ...(after === null ? [] : [after])],
    );
    let resealed = 0;
    const updated = rows.map((row) =>
      columns.map((column) => {
        const token = row[column] ?? null;
        if (token === null || token.startsWith(`${ring.current}:`)) return token;
        resealed += 1;
        return fields.seal(spec.aad(row.key!, column), fields.open(spec.aad(row.key!, column), token));
      }),
    );
    if (rows.length > 0) {
      const sets = columns.map((column, i) => `${column} = v.c${i}`).join(', ');
      const arrays = columns.map((_, i) => `$${i + 2}::text[]`).join(', ');
      const names = columns.map((_, i) => `c${i}`).join(', ');
      await client.query(
        `UPDATE vetted.${table} AS t SET ${sets} FROM unnest($1::text[], ${arrays}) AS v(k, ${names})
          WHERE t.${key} = v.k::${spec.keyType}`,
        [rows.map((row) => row.key), ...columns.map((_, i) => updated.map((tokens) => tokens[i]))],
      );
    }
    await client.query('COMMIT');
    return { last: rows.length < batch ? null : (rows.at(-1)?.key ?? null), values: resealed };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** How many values of the store are sealed under another key than the current one. */
export async function staleValues(db: Queryable, current: string): Promise<number> {
  let count = 0;
  for (const { table, columns } of SEALED_TABLES) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM vetted.${table} WHERE ${stale(columns)}`,
      [`${current}:`],
    );
    count += rows[0]?.n ?? 0;
  }
  return count;
}

/**
 * Reseals the whole store under its current data key, then deletes every other data key (and the legacy
 * one). Answers how many values it resealed and how many keys it retired. `teamKey` is the current team key.
 */
export async function resealStore(
  client: pg.ClientBase,
  teamKey: Buffer,
  options: ResealOptions & { finish?: (client: pg.ClientBase, retired: number) => Promise<void> } = {},
): Promise<{ values: number; retiredKeys: number }> {
  const batch = options.batch ?? 500;
  const ring = await loadKeyRing(client, teamKey);
  if (ring.current === LEGACY_KEY_ID) return { values: 0, retiredKeys: 0 };
  let values = 0;
  for (;;) {
    for (const spec of SEALED_TABLES) {
      let after: string | null = null;
      do {
        const done = await resealBatch(client, spec, ring, after, batch);
        after = done.last;
        values += done.values;
        if (done.values > 0) options.onBatch?.(done.values);
      } while (after !== null);
    }
    const retired = await retireOldKeys(client, ring.current, options.finish);
    if (retired !== null) return { values, retiredKeys: retired };
  }
}

/**
 * Deletes the data keys other than `current` if no value names one any more; null when some still do (rows
 * a desk held during the pass, or written just before the rotation): another pass reseals them. The sealed
 * tables are held in SHARE mode for the check, so no writer adds a row under an old key in between.
 */
async function retireOldKeys(
  client: pg.ClientBase,
  current: string,
  finish?: (client: pg.ClientBase, retired: number) => Promise<void>,
): Promise<number | null> {
  await client.query('BEGIN');
  try {
    const tables = SEALED_TABLES.map(({ table }) => `vetted.${table}`).join(', ');
    await client.query(`LOCK TABLE ${tables} IN SHARE MODE`);
    if ((await staleValues(client, current)) > 0) {
      await client.query('ROLLBACK');
      return null;
    }
    const deleted = await client.query(
      `DELETE FROM vetted.team_keys WHERE purpose = 'data' AND NOT current AND key_id <> $1`,
      [current],
    );
    await finish?.(client, deleted.rowCount ?? 0);
    await client.query('COMMIT');
    return deleted.rowCount ?? 0;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
