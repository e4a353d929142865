// Bringing a desk's solo history into the team it joined (#30). Every item is keyed by where it came from
// (this journal, its kind, its number here) in `vetted.brought_from_desks`, inserted ON CONFLICT DO NOTHING
// in the same short transaction as the item itself: a join repeated, or killed at any moment, resumes and
// brings nothing twice. Notes keep the time they were written here and name this desk; audit entries are
// appended to the team's chain now (its time is when it was written) with their original time in the detail,
// which the chain's hash covers; customers the team already knows are left as the team has them. Drafts
// waiting to be sent move into the team outbox under the Idempotency-Keys they already carry (outbox/submit.ts).
import type pg from 'pg';
import type { HistoryBrought, HistoryProgress } from '#contract/team-history.ts';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import type { SqliteJournal } from '#main/data/journal/index.ts';
import { notePlace } from '#main/data/journal/notes.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import { sealedReported } from '#main/data/journal/personal.ts';
import { type LinkedAuditEntry, uncheckedAction } from '#main/data/journal/repositories/audit.ts';
import type { JournalCustomer } from '#main/data/journal/repositories/customers.ts';
import type { PersonalData } from '#main/data/journal/repositories/personal-data.ts';
import { type Clock, isoTime } from '#main/data/journal/time.ts';
import type { Logger } from '#main/ground/log/logger.ts';
import { appendAuditEntry } from '../journal/audit.ts';
import { sealPersonal } from '../journal/customer-row.ts';
import { writeCustomerRow } from '../journal/customers.ts';
import { drawChange } from '../journal/team-db.ts';
import { flushLocal } from '../outbox/submit.ts';
import { inTransaction, type Queryable } from '../store/sql.ts';
import { isKeptFromTeam } from './keep.ts';

export interface BringOptions {
  local: SqliteJournal;
  /** On the team store, as this reviewer (the store stamps their login on everything brought). */
  pool: pg.Pool;
  cipher: PersonalCipher;
  sealer: AuditSealer;
  clock: Clock;
  /** Items per transaction: short ones, so a kill loses at most one batch's work, redone on the next run. */
  batch?: number;
  onProgress?(progress: HistoryProgress): void;
  /** After each committed batch (tests stop a run there). */
  afterBatch?(batches: number): void;
  log?: Logger;
}

const BATCH = 100;
type Kind = 'note' | 'audit' | 'customer';
type LocalNote = Awaited<ReturnType<SqliteJournal['history']['notesAfter']>>[number];
interface LocalCustomer {
  customer: JournalCustomer | undefined;
  personal: PersonalData | undefined;
  reported: Record<string, unknown>;
}

/** Claims the item's key; false when an earlier run brought it already. */
async function claim(client: Queryable, desk: string, kind: Kind, localId: string | number) {
  const { rowCount } = await client.query(
    `INSERT INTO vetted.brought_from_desks (desk, kind, local_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [desk, kind, String(localId)],
  );
  return rowCount === 1;
}

/** Audit entries to bring: this desk's own, not copies it kept from a team it left (keep.ts). */
export const ownEntry = (entry: LinkedAuditEntry) => !isKeptFromTeam(entry);

export async function bringHistory(options: BringOptions): Promise<HistoryBrought> {
  const { local, pool, cipher, sealer, clock } = options;
  const batch = options.batch ?? BATCH;
  const desk = await deskIdOf(local);
  const offer = await local.history.counts();
  const audits = await local.audit.count();
  const total = offer.notes + offer.customers + audits;
  const result: HistoryBrought = {
    notes: { brought: 0, already: 0 },
    auditEntries: { brought: 0, already: 0 },
    customers: { brought: 0, already: 0 },
    drafts: { moved: 0, waiting: 0 },
  };
  let done = 0;
  let batches = 0;
  const committed = (count: number) => {
    done += count;
    batches += 1;
    options.onProgress?.({ done: Math.min(done, total), total });
    options.afterBatch?.(batches);
  };
  const tally = (outcome: { brought: number; already: number }, brought: boolean) => {
    if (brought) outcome.brought += 1;
    else outcome.already += 1;
  };

  // Customers first: a note brought after them finds its customer in the team's queue.
  for (let after = ''; ; ) {
    const ids = await local.history.customersAfter(after, batch);
    if (ids.length === 0) break;
    const rows = await Promise.all(
      ids.map(async (id) => ({
        customer: await local.customers.get(id),
        personal: await local.customers.personal(id),
        reported: await local.customers.reported(id),
      })),
    );
    await inTransaction(pool, async (client) => {
      for (const row of rows) {
        if (row.customer) tally(result.customers, await bringCustomer(client, cipher, desk, row));
      }
    });
    after = ids.at(-1) ?? after;
    committed(ids.length);
  }

  for (let after = 0; ; ) {
    const notes = await local.history.notesAfter(after, batch);
    if (notes.length === 0) break;
    await inTransaction(pool, async (client) => {
      for (const note of notes) tally(result.notes, await bringNote(client, cipher, desk, note));
    });
    after = notes.at(-1)?.seq ?? after;
    committed(notes.length);
  }

  for (let after = 0; ; ) {
    const entries = await local.audit.linked({ afterSeq: after, limit: batch });
    if (entries.length === 0) break;
    await inTransaction(pool, async (client) => {
      for (const entry of entries.filter(ownEntry)) {
        tally(result.auditEntries, await bringAuditEntry(client, sealer, clock, desk, entry));
      }
    });
    after = entries.at(-1)?.seq ?? after;
    committed(entries.length);
  }

  const drafts = await flushLocal({ local, pool, cipher, ...(options.log ? { log: options.log } : {}) });
  result.drafts = { moved: drafts.moved.length, waiting: drafts.waiting.length };
  options.onProgress?.({ done: total, total });
  return result;
}

/** A customer the team does not know yet, as this desk has it; false when brought before or known. */
async function bringCustomer(
  client: Queryable,
  cipher: PersonalCipher,
  desk: string,
  { customer, personal, reported }: LocalCustomer,
): Promise<boolean> {
  if (!customer || !(await claim(client, desk, 'customer', customer.id))) return false;
  // Every writer of customers draws the change number first (it holds CHANGE_LOCK to the commit), so
  // none can add this customer between the look and the insert.
  const seq = await drawChange(client);
  const { rowCount } = await client.query('SELECT 1 FROM vetted.customers WHERE id = $1', [customer.id]);
  if (rowCount) return false;
  await writeCustomerRow(
    client,
    cipher,
    {
      customer,
      personal: personal ? sealPersonal(cipher, customer.id, personal) : null,
      reported: sealedReported(cipher, customer.id, reported),
    },
    seq,
  );
  return true;
}

/** A note as written here, naming this desk; false when brought before. */
async function bringNote(
  client: Queryable,
  cipher: PersonalCipher,
  desk: string,
  note: LocalNote,
): Promise<boolean> {
  if (!(await claim(client, desk, 'note', note.seq))) return false;
  const seq = await drawChange(client);
  await client.query(
    `INSERT INTO vetted.notes (seq, customer_id, at, body, brought_from) VALUES ($1, $2, $3, $4, $5)`,
    [seq, note.customerId, note.at, cipher.seal(notePlace(seq), note.text), desk],
  );
  return true;
}

/** An audit entry appended to the team's chain now, its original time in the detail; false when brought before. */
async function bringAuditEntry(
  client: Queryable,
  sealer: AuditSealer,
  clock: Clock,
  desk: string,
  entry: LinkedAuditEntry,
): Promise<boolean> {
  if (!(await claim(client, desk, 'audit', entry.seq))) return false;
  await appendAuditEntry(client, sealer, {
    at: isoTime(clock()),
    action: uncheckedAction(entry.action),
    customerId: entry.customerId,
    outcome: entry.outcome,
    detail: broughtDetail(desk, entry),
  });
  return true;
}

/** The entry as the desk wrote it: when and by whom there, and its own detail. */
export function broughtDetail(desk: string, entry: LinkedAuditEntry): string {
  const who = entry.actor ? ` by ${entry.actor}` : '';
  const detail = entry.detail ? `; ${entry.detail}` : '';
  return `brought from desk ${desk.slice(0, 8)}: done ${entry.at}${who}${detail}`;
}

/** This journal's name; a journal with an empty audit log gets its first entry, which names it from then on. */
async function deskIdOf(local: SqliteJournal): Promise<string> {
  const known = await local.history.deskId();
  if (known) return known;
  await local.audit.record({ action: 'team.history', outcome: 'ok', detail: 'names this desk’s journal' });
  const named = await local.history.deskId();
  if (!named) throw new Error('The journal’s audit log has no first entry to name it by.');
  return named;
}
