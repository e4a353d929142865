/**
 * The team bench's data, made fast and as desks make it:
 * - customers into the team store, each row built and sealed with the team key by the same code as a desk's
 *   first `upsert` of a customer (`firstWrite`, `customerRowValues`, `historyRowValues` of
 *   main/team/journal/customers.ts), its change number drawn from the store's sequence under CHANGE_LOCK,
 *   many rows to a statement (one desk upsert per row would take minutes for 100,000);
 * - a local journal whose replica has caught up with the store through a desk's own replication
 *   (`startReplication`: the store's rows read back and opened with the team key, applied as every desk
 *   applies them), copied into each desk's and hub's data directory with the vault whose key seals it, as
 *   if each had caught up once already (50 desks catching up 100,000 customers each would take the bench's
 *   whole time).
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { openJournal } from '#main/data/journal/index.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import {
  CUSTOMER_WRITE_COLUMNS,
  customerRowValues,
  firstWrite,
  HISTORY_WRITE_COLUMNS,
  historyRowValues,
} from '#main/team/journal/customers.ts';
import { startReplication } from '#main/team/journal/replication.ts';
import { CHANGE_LOCK, CHANGES_CHANNEL } from '#main/team/store/sql.ts';
import type { QueueCustomer } from './queue-journal.ts';

/** `$1, $2…` placeholders for `rows` rows of `columns` values each. */
function placeholders(rows: number, columns: number): string {
  return Array.from(
    { length: rows },
    (_, r) => `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(', ')})`,
  ).join(', ');
}

function* batches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Writes `customers` (none of them in the store yet) as a desk's upsert of a customer first seen by a poll
 * writes each: the row and its first status, under a change number of its own, sealed with `cipher` (the
 * store's current data key, as a desk seals). Returns how many.
 */
export async function seedStoreCustomers(
  db: pg.ClientBase,
  cipher: PersonalCipher,
  customers: Iterable<QueueCustomer>,
  batchSize = 1_000,
): Promise<number> {
  let written = 0;
  for (const batch of batches(customers, batchSize)) {
    await db.query('BEGIN');
    try {
      await db.query('SELECT pg_advisory_xact_lock($1)', [CHANGE_LOCK]);
      const { rows } = await db.query<{ seq: string }>(
        `SELECT nextval('vetted.change_seq') AS seq FROM generate_series(1, $1)`,
        [batch.length],
      );
      const seqs = rows.map((row) => Number(row.seq));
      const at = new Date().toISOString();
      const customerValues: unknown[] = [];
      const historyValues: unknown[] = [];
      for (const [i, { customer, since }] of batch.entries()) {
        const observation = { source: 'poll' as const, at: since };
        const write = firstWrite(cipher, customer, observation, at);
        customerValues.push(...customerRowValues(cipher, write, seqs[i]!));
        historyValues.push(
          ...historyRowValues(
            seqs[i]!,
            customer.id,
            write.customer.statusSince,
            observation,
            customer.status,
          ),
        );
      }
      await db.query(
        `INSERT INTO vetted.customers (${CUSTOMER_WRITE_COLUMNS}) VALUES ${placeholders(batch.length, 13)}`,
        customerValues,
      );
      await db.query(
        `INSERT INTO vetted.status_history (${HISTORY_WRITE_COLUMNS}) VALUES ${placeholders(batch.length, 6)}`,
        historyValues,
      );
      await db.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, String(seqs.at(-1))]);
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    written += batch.length;
  }
  return written;
}

/**
 * Brings the replica of the journal in `dir` (made with the vault there, on first use) up to the store's last
 * change, through a desk's replication on `pool` (a reviewer's login). Returns the replica's last change
 * number and how many customers it holds.
 */
export async function catchUpReplica(
  dir: string,
  pool: pg.Pool,
  cipher: PersonalCipher,
): Promise<{ lastSeq: number; customers: number }> {
  const local = openJournal({
    file: path.join(dir, 'journal.db'),
    dataKey: openFileKeyVault({ dir }).dataKey(),
  });
  const replication = startReplication({
    pool,
    cipher,
    local,
    log: createLogger(() => undefined),
    // Larger pages than a desk's (it applies them on its window's thread): nobody waits on this one.
    pageSize: 2_000,
  });
  try {
    const lastSeq = await replication.catchUp();
    const { total } = await local.queue.window({ section: 'all', search: '', offset: 0, limit: 1 });
    return { lastSeq, customers: total };
  } finally {
    await replication.close();
    await local.close();
  }
}

/** A copy of the template's files (vault, journal) in `dir`, before the desk or hub there joins. */
export function copyDataDir(template: string, dir: string): void {
  cpSync(template, dir, { recursive: true });
}
