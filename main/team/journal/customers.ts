// Customers on the team store: the same repository as the local journal's (main/data/journal/customers.ts), its
// semantics kept exactly, on PostgreSQL. Each write locks the customer's row (FOR UPDATE), so two desks
// recording the same customer at once take turns and the history stays one consistent line; each row written
// carries a change number for the desks' replicas. Personal data is sealed with the team key here, on the desk.
import { z } from 'zod';
import { sectionOf } from '#contract/queue.ts';
import { JournalError } from '#main/data/journal/errors.ts';
import { type PersonalCipher, sealedReported } from '#main/data/journal/personal.ts';
import type {
  CustomersRepository,
  JournalCustomer,
  Observation,
  ServiceCustomer,
  StatusChange,
  UpsertResult,
} from '#main/data/journal/repositories/customers.ts';
import type { PersonalData } from '#main/data/journal/repositories/personal-data.ts';
import { firstRecord, fromService } from '#main/data/journal/service-record.ts';
import { isoTime, latest } from '#main/data/journal/time.ts';
import { reportedFields } from '#main/data/service/hal.ts';
import { CHANGE_LOCK, type Queryable } from '../store/sql.ts';
import {
  CUSTOMER_COLUMNS,
  type CustomerRow,
  CustomerRowSchema,
  changedAtAfter,
  customerFromRow,
  customerOf,
  openPersonal,
  openReported,
  sealPersonal,
  sealProfile,
} from './customer-row.ts';
import { PgText, toPgText } from './rows.ts';
import { DRAWN_CTE, drawnSeq, type TeamRepositoryContext } from './team-db.ts';

const HistoryRowSchema = z.object({
  status: PgText,
  at: z.date().transform((date) => date.toISOString()),
  source: z.enum(['created', 'poll', 'event']),
  event_id: z.string().nullable(),
});

const SealedSchema = z.object({ sealed: z.string().nullable() });

/** A customer as it will be written, with the sealed columns that are not part of `JournalCustomer`. */
export interface Written {
  customer: JournalCustomer;
  personal: string | null;
  reported: string | null;
}

/** The columns a write gives a customer row, in the order of `customerRowValues`. */
export const CUSTOMER_WRITE_COLUMNS = `id, seq, status, section, status_since, created, last_refreshed, changed_at,
  gone_at, pending_documents, profile, personal, reported`;
/** Those columns but the id set from `customerRowValues`' $2…$13: a rewrite, by conflict or by a plain UPDATE. */
const CUSTOMER_SET = `seq = $2, status = $3, section = $4, status_since = $5, created = $6, last_refreshed = $7,
  changed_at = $8, gone_at = $9, pending_documents = $10, profile = $11, personal = $12, reported = $13`;
export const HISTORY_WRITE_COLUMNS = 'seq, customer_id, status, at, source, event_id';

/**
 * A customer the store does not hold yet, as `upsert` first writes it (its personal data and the fields the
 * service reported sealed with the team key). Exported for bulk loads (the team bench's seed), which must
 * write exactly the rows a desk would.
 */
export function firstWrite(
  cipher: PersonalCipher,
  service: ServiceCustomer,
  observation: Observation,
  at: string,
  personal?: PersonalData,
): Written {
  return {
    customer: firstRecord(service, observation, at),
    personal: personal ? sealPersonal(cipher, service.id, personal) : null,
    reported: sealedReported(cipher, service.id, reportedFields(service)),
  };
}

/** A customer row's values in `CUSTOMER_WRITE_COLUMNS` order, under change number `seq`. */
export function customerRowValues(cipher: PersonalCipher, written: Written, seq: number): unknown[] {
  const { customer: c, personal, reported } = written;
  return [
    c.id,
    seq,
    toPgText(c.status),
    c.section,
    c.statusSince,
    c.created,
    c.lastRefreshed,
    c.changedAt,
    c.goneAt,
    c.pendingDocuments,
    sealProfile(cipher, c),
    personal,
    reported,
  ];
}

/** A status history row's values in `HISTORY_WRITE_COLUMNS` order. */
export function historyRowValues(
  seq: number,
  customerId: string,
  at: string,
  observation: Observation,
  status: string,
): unknown[] {
  return [seq, customerId, toPgText(status), at, observation.source, observation.eventId ?? null];
}

/** Writes a customer's whole row under a fresh change number (its profile sealed here). */
export async function writeCustomerRow(
  client: Queryable,
  cipher: PersonalCipher,
  written: Written,
  seq: number,
): Promise<void> {
  await client.query(
    `INSERT INTO vetted.customers (${CUSTOMER_WRITE_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (id) DO UPDATE SET ${CUSTOMER_SET}`,
    customerRowValues(cipher, written, seq),
  );
}

/**
 * Rewrites a customer row the transaction holds locked (FOR UPDATE) under a fresh change number: a plain
 * UPDATE, without the conflict check `writeCustomerRow`'s INSERT makes first.
 */
export async function updateCustomerRow(
  client: Queryable,
  cipher: PersonalCipher,
  written: Written,
  seq: number,
): Promise<void> {
  const { rowCount } = await client.query(
    `UPDATE vetted.customers SET ${CUSTOMER_SET} WHERE id = $1`,
    customerRowValues(cipher, written, seq),
  );
  if (rowCount !== 1)
    throw new JournalError(
      `Customer ${written.customer.id} vanished from the team store while being written`,
    );
}

export function teamCustomersRepository(ctx: TeamRepositoryContext): CustomersRepository {
  return {
    upsert: (service, observation, personal) => upsert(ctx, service, observation, personal),
    get: (id) => getCustomer(ctx, id),
    history: (id) => statusHistory(ctx, id),
    markGone: (id) => markGone(ctx, id),
    setDocuments: (id, documents) => setDocuments(ctx, id, documents),
    setPersonal: (id, personal) => setPersonal(ctx, id, personal),
    async personal(id) {
      const sealed = await sealedColumn(ctx, id, 'personal');
      return sealed ? openPersonal(ctx.cipher, id, sealed) : undefined;
    },
    async reported(id) {
      const sealed = await sealedColumn(ctx, id, 'reported');
      return sealed ? openReported(ctx.cipher, id, sealed) : {};
    },
    toReconcile: () => toReconcile(ctx),
  };
}

const now = ({ clock }: TeamRepositoryContext) => isoTime(clock());

/** A customer's row, locked until the transaction ends, and its customer. */
interface Locked {
  row: CustomerRow;
  customer: JournalCustomer;
}

async function locked(cipher: PersonalCipher, client: Queryable, id: string): Promise<Locked | undefined> {
  const { rows } = await client.query(
    `SELECT ${CUSTOMER_COLUMNS} FROM vetted.customers WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (rows.length === 0) return undefined;
  const row: CustomerRow = CustomerRowSchema.parse(rows[0]);
  return { row, customer: customerOf(row, cipher) };
}

/**
 * `nextChange` and `locked` in ONE round trip (a webhook's refresh is the hub's commonest write): the
 * change number drawn under CHANGE_LOCK first, then the row locked, as the two statements would.
 */
async function drawnAndLocked(
  { db, cipher }: TeamRepositoryContext,
  client: Queryable,
  id: string,
): Promise<{ seq: number; found: Locked | undefined }> {
  const { rows } = await client.query(
    `WITH ${DRAWN_CTE},
       found AS MATERIALIZED (SELECT ${CUSTOMER_COLUMNS} FROM vetted.customers
         WHERE id = $2 AND EXISTS (SELECT FROM drawn) FOR UPDATE)
     SELECT drawn.seq AS drawn_seq, found.* FROM drawn LEFT JOIN found ON true`,
    [CHANGE_LOCK, id],
  );
  const { drawn_seq, ...columns } = (rows[0] ?? {}) as Record<string, unknown>;
  const seq = drawnSeq(drawn_seq);
  db.noteChange(client, seq);
  // The statement's snapshot predates its wait for CHANGE_LOCK: a row another writer inserted meanwhile is
  // not in it (an existing row is, and FOR UPDATE gives its newest version). So a customer not found is
  // looked for again, CHANGE_LOCK held: a first write of a customer, rare beside refreshes.
  if (columns.id === null || columns.id === undefined)
    return { seq, found: await locked(cipher, client, id) };
  const row: CustomerRow = CustomerRowSchema.parse(columns);
  return { seq, found: { row, customer: customerOf(row, cipher) } };
}

async function recordStatus(
  client: Queryable,
  seq: number,
  id: string,
  at: string,
  o: Observation,
  status: string,
): Promise<void> {
  await client.query(
    `INSERT INTO vetted.status_history (${HISTORY_WRITE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`,
    historyRowValues(seq, id, at, o, status),
  );
}

function upsert(
  ctx: TeamRepositoryContext,
  service: ServiceCustomer,
  observation: Observation,
  personal: PersonalData | undefined,
): Promise<UpsertResult> {
  const { db, cipher, clock } = ctx;
  return db.write(async (client) => {
    const { seq, found } = await drawnAndLocked(ctx, client, service.id);
    const at = isoTime(clock());
    if (!found) {
      const written = firstWrite(cipher, service, observation, at, personal);
      const { customer } = written;
      await writeCustomerRow(client, cipher, written, seq);
      await recordStatus(client, seq, service.id, customer.statusSince, observation, service.status);
      return { customer, isNew: true, statusChanged: true, before: undefined };
    }
    const { written, observedAt, statusChanged } = rewrite(cipher, found, service, observation, at, personal);
    await updateCustomerRow(client, cipher, written, seq);
    if (statusChanged) await recordStatus(client, seq, service.id, observedAt, observation, service.status);
    return { customer: written.customer, isNew: false, statusChanged, before: found.customer };
  });
}

/** A known customer as the service now shows it, observed at `observedAt` (the observation's time, or now). */
function rewrite(
  cipher: PersonalCipher,
  found: Locked,
  service: ServiceCustomer,
  observation: Observation,
  at: string,
  personal: PersonalData | undefined,
): { written: Written; observedAt: string; statusChanged: boolean } {
  const reported = sealedReported(cipher, service.id, reportedFields(service));
  const existing = found.customer;
  const observedAt = observation.at ? isoTime(observation.at, at) : at;
  const statusChanged = existing.status !== service.status;
  const updated: JournalCustomer = {
    ...existing,
    ...fromService(service, existing.url),
    section: sectionOf(service.status, existing.pendingDocuments),
    // Events arrive out of order: a late event's time must not make a newer status look older.
    statusSince: statusChanged ? latest(observedAt, existing.statusSince) : existing.statusSince,
    lastRefreshed: at,
    goneAt: null,
  };
  const customer = { ...updated, changedAt: changedAtAfter(existing, updated) };
  const sealed = personal ? sealPersonal(cipher, service.id, personal) : found.row.personal;
  return { written: { customer, personal: sealed, reported }, observedAt, statusChanged };
}

/**
 * Lets `work` decide what becomes of a known customer, and writes that. The change number is drawn before
 * the row is locked, as by every writer: CHANGE_LOCK first, then rows, so that two writers never wait on
 * each other in a circle. Customers are never deleted, so one seen to exist still does when locked.
 */
function change(
  { db, cipher }: TeamRepositoryContext,
  id: string,
  work: (found: Locked) => Written,
): Promise<JournalCustomer | undefined> {
  return db.write(async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM vetted.customers WHERE id = $1', [id]);
    if (!rowCount) return undefined;
    const seq = await db.nextChange(client);
    const found = await locked(cipher, client, id);
    if (!found) throw new JournalError(`Customer ${id} vanished from the team store while being written`);
    const written = work(found);
    await updateCustomerRow(client, cipher, written, seq);
    return written.customer;
  });
}

function markGone(ctx: TeamRepositoryContext, id: string): Promise<JournalCustomer | undefined> {
  const at = now(ctx);
  return change(ctx, id, ({ row, customer: existing }) => {
    const updated = { ...existing, goneAt: existing.goneAt ?? at, lastRefreshed: at };
    const customer = { ...updated, changedAt: changedAtAfter(existing, updated) };
    return { customer, personal: row.personal, reported: row.reported };
  });
}

function setDocuments(
  ctx: TeamRepositoryContext,
  id: string,
  { pending, note }: Parameters<CustomersRepository['setDocuments']>[1],
): Promise<JournalCustomer | undefined> {
  return change(ctx, id, ({ row, customer: existing }) => {
    const updated = {
      ...existing,
      pendingDocuments: pending,
      note,
      section: sectionOf(existing.status, pending),
    };
    const customer = { ...updated, changedAt: changedAtAfter(existing, updated) };
    return { customer, personal: row.personal, reported: row.reported };
  });
}

async function setPersonal(ctx: TeamRepositoryContext, id: string, personal: PersonalData): Promise<void> {
  const done = await change(ctx, id, ({ row, customer }) => ({
    customer,
    personal: sealPersonal(ctx.cipher, id, personal),
    reported: row.reported,
  }));
  if (!done) throw new JournalError(`No customer ${id} in the journal`);
}

async function getCustomer(
  { db, cipher }: TeamRepositoryContext,
  id: string,
): Promise<JournalCustomer | undefined> {
  const { rows } = await db.read.query(`SELECT ${CUSTOMER_COLUMNS} FROM vetted.customers WHERE id = $1`, [
    id,
  ]);
  return rows.length === 0 ? undefined : customerFromRow(rows[0], cipher);
}

async function statusHistory({ db }: TeamRepositoryContext, id: string): Promise<StatusChange[]> {
  const { rows } = await db.read.query(
    'SELECT status, at, source, event_id FROM vetted.status_history WHERE customer_id = $1 ORDER BY seq',
    [id],
  );
  return rows.map((row) => {
    const { event_id, ...change } = HistoryRowSchema.parse(row);
    return { ...change, eventId: event_id };
  });
}

async function sealedColumn(
  { db }: TeamRepositoryContext,
  id: string,
  column: 'personal' | 'reported',
): Promise<string | null> {
  const { rows } = await db.read.query(`SELECT ${column} AS sealed FROM vetted.customers WHERE id = $1`, [
    id,
  ]);
  return rows.length === 0 ? null : SealedSchema.parse(rows[0]).sealed;
}

async function toReconcile({ db }: TeamRepositoryContext): Promise<string[]> {
  // Ids in byte order, as SQLite sorts text: the order must not depend on the database's collation.
  const { rows } = await db.read.query(
    `SELECT id FROM vetted.customers
     WHERE section IN ('retry', 'document', 'review', 'kba', 'unverified', 'other') AND gone_at IS NULL
     ORDER BY status_since, id COLLATE "C"`,
  );
  return rows.map((row) => z.object({ id: z.string() }).parse(row).id);
}
