// Customers as last seen on the service, their status history, and their personal data (encrypted).
import { z } from 'zod';
import { type Section, sectionOf } from '#contract/queue.ts';
import { reportedFields } from '../service/hal.ts';
import { type Db, type Statements, type Sync, transaction } from './db.ts';
import { JournalError } from './errors.ts';
import { customerPlace, type PersonalCipher, sealedPersonal, sealedReported } from './personal.ts';
import type {
  CustomersRepository,
  JournalCustomer,
  Observation,
  ServiceCustomer,
  StatusChange,
  StatusSource,
  UpsertResult,
} from './repositories/customers.ts';
import { AddressSchema, type PersonalData } from './repositories/personal-data.ts';
import { firstRecord, LinksSchema, recordedFields, serviceFields } from './service-record.ts';
import { type Clock, isoTime, latest } from './time.ts';

interface CustomerRow {
  id: string;
  url: string;
  name: string;
  email: string;
  type: string;
  status: string;
  section: Exclude<Section, 'drafts'>;
  status_since: string;
  created: string;
  last_refreshed: string;
  links: string;
  gone_at: string | null;
  pending_documents: number;
  note: string | null;
  changed_at: string;
}

interface PersonalRow {
  address: string | null;
  date_of_birth: string | null;
  ssn_last_four: string | null;
}

const ReportedSchema = z.record(z.string(), z.unknown());

const SELECT_CUSTOMER = `SELECT id, url, name, email, type, status, section, status_since, created, last_refreshed,
  links, gone_at, pending_documents, note, changed_at FROM customers WHERE id = :id`;

const PERSONAL_SET = ', address = :address, date_of_birth = :dateOfBirth, ssn_last_four = :ssnLastFour';

interface CustomersState {
  db: Db;
  sql: Statements;
  cipher: PersonalCipher;
  clock: Clock;
}

export function customersRepository(db: Db, sql: Statements, cipher: PersonalCipher, clock: Clock) {
  const state: CustomersState = { db, sql, cipher, clock };
  const repository: Sync<CustomersRepository> = {
    upsert: (customer, observation, personal) => upsert(state, customer, observation, personal),
    get: (id) => get(sql, id),
    history: (id) => history(sql, id),
    markGone(id) {
      sql.run(`UPDATE customers SET gone_at = coalesce(gone_at, :at), last_refreshed = :at WHERE id = :id`, {
        id,
        at: isoTime(clock()),
      });
      return get(sql, id);
    },
    setDocuments: (id, documents) => setDocuments(state, id, documents),
    setPersonal(id, personal) {
      const { changes } = sql.run(`UPDATE customers SET ${PERSONAL_SET.slice(2)} WHERE id = :id`, {
        id,
        ...sealedPersonal(cipher, id, personal),
      });
      if (changes === 0) throw new JournalError(`No customer ${id} in the journal`);
    },
    personal: (id) => openPersonal(state, id),
    reported: (id) => openReported(state, id),
    toReconcile: () => toReconcile(sql),
  };
  return repository;
}

const row = (sql: Statements, id: string) => sql.get<CustomerRow>(SELECT_CUSTOMER, { id });

function get(sql: Statements, id: string): JournalCustomer | undefined {
  const found = row(sql, id);
  return found && toCustomer(found);
}

function upsert(
  state: CustomersState,
  customer: ServiceCustomer,
  observation: Observation,
  personal: PersonalData | undefined,
): UpsertResult {
  // What the service said is the truth and can be asked again: a refresh need not wait for the disk.
  const sync = observation.source === 'created' ? 'now' : 'later';
  return transaction(
    state.db,
    () => {
      const existing = row(state.sql, customer.id);
      const at = isoTime(state.clock());
      if (!existing) {
        return {
          customer: insert(state, customer, observation, at, personal),
          isNew: true,
          statusChanged: true,
          before: undefined,
        };
      }
      const before = toCustomer(existing);
      const { recorded, changed } = update(state, customer, observation, at, existing, personal);
      return { customer: recorded, isNew: false, statusChanged: changed, before };
    },
    { sync },
  );
}

function recordStatus(
  sql: Statements,
  id: string,
  status: string,
  at: string,
  observation: Observation,
): void {
  sql.run(
    `INSERT INTO status_history (customer_id, status, at, source, event_id)
     VALUES (:id, :status, :at, :source, :eventId)`,
    { id, status, at, source: observation.source, eventId: observation.eventId ?? null },
  );
}

/** The columns every upsert writes, and the personal ones when given. */
function written(
  cipher: PersonalCipher,
  customer: ServiceCustomer,
  previousUrl: string,
  personal: PersonalData | undefined,
) {
  return {
    ...serviceFields(customer, previousUrl),
    // The service's latest answer is the truth: fields it no longer gives are forgotten.
    reported: sealedReported(cipher, customer.id, reportedFields(customer)),
    ...(personal ? sealedPersonal(cipher, customer.id, personal) : {}),
  };
}

function insert(
  { sql, cipher }: CustomersState,
  customer: ServiceCustomer,
  observation: Observation,
  at: string,
  personal?: PersonalData,
): JournalCustomer {
  const recorded = firstRecord(customer, observation, at);
  const { section, statusSince, created } = recorded;
  const fields = written(cipher, customer, '', personal);
  sql.run(
    `INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed,
       links, reported${personal ? ', address, date_of_birth, ssn_last_four' : ''})
     VALUES (:id, :url, :name, :email, :type, :status, :section, :statusSince, :created, :at, :links, :reported
       ${personal ? ', :address, :dateOfBirth, :ssnLastFour' : ''})`,
    { ...fields, section, statusSince, created, at },
  );
  recordStatus(sql, customer.id, customer.status, statusSince, observation);
  return recorded;
}

function update(
  { sql, cipher }: CustomersState,
  customer: ServiceCustomer,
  observation: Observation,
  at: string,
  existing: CustomerRow,
  personal?: PersonalData,
): { recorded: JournalCustomer; changed: boolean } {
  const observedAt = observation.at ? isoTime(observation.at, at) : at;
  const changed = existing.status !== customer.status;
  // Events arrive out of order: a late event's time must not make a newer status look older.
  const statusSince = changed ? latest(observedAt, existing.status_since) : existing.status_since;
  const fields = written(cipher, customer, existing.url, personal);
  const section = sectionOf(customer.status, existing.pending_documents);
  sql.run(
    `UPDATE customers SET url = :url, name = :name, email = :email, type = :type, status = :status,
       section = :section, status_since = :statusSince, last_refreshed = :at, links = :links, gone_at = NULL,
       reported = :reported${personal ? PERSONAL_SET : ''}
     WHERE id = :id`,
    { ...fields, section, statusSince, at },
  );
  if (changed) recordStatus(sql, customer.id, customer.status, observedAt, observation);
  const recorded: JournalCustomer = {
    ...recordedFields(fields, customer._links),
    section,
    statusSince,
    created: existing.created,
    lastRefreshed: at,
    goneAt: null,
    pendingDocuments: existing.pending_documents,
    note: existing.note,
    changedAt: changedAtAfter(
      existing,
      { status: customer.status, section, name: fields.name, email: fields.email },
      [at, statusSince],
    ),
  };
  return { recorded, changed };
}

function history(sql: Statements, id: string): StatusChange[] {
  return sql
    .all<{ status: string; at: string; source: StatusSource; event_id: string | null }>(
      'SELECT status, at, source, event_id FROM status_history WHERE customer_id = :id ORDER BY seq',
      { id },
    )
    .map(({ event_id, ...change }) => ({ ...change, eventId: event_id }));
}

function setDocuments(
  { db, sql }: CustomersState,
  id: string,
  { pending, note }: { pending: number; note: string | null },
): JournalCustomer | undefined {
  return transaction(db, () => {
    const existing = row(sql, id);
    if (!existing) return undefined;
    sql.run(
      'UPDATE customers SET pending_documents = :pending, note = :note, section = :section WHERE id = :id',
      {
        id,
        pending,
        note,
        section: sectionOf(existing.status, pending),
      },
    );
    return get(sql, id);
  });
}

function openPersonal({ sql, cipher }: CustomersState, id: string): PersonalData | undefined {
  const sealed = sql.get<PersonalRow>(
    'SELECT address, date_of_birth, ssn_last_four FROM customers WHERE id = :id',
    {
      id,
    },
  );
  if (!sealed?.address || !sealed.date_of_birth || !sealed.ssn_last_four) return undefined;
  return {
    address: AddressSchema.parse(JSON.parse(cipher.open(customerPlace(id, 'address'), sealed.address))),
    dateOfBirth: cipher.open(customerPlace(id, 'date_of_birth'), sealed.date_of_birth),
    ssnLastFour: cipher.open(customerPlace(id, 'ssn_last_four'), sealed.ssn_last_four),
  };
}

function openReported({ sql, cipher }: CustomersState, id: string): Record<string, unknown> {
  const sealed = sql.get<{ reported: string | null }>('SELECT reported FROM customers WHERE id = :id', {
    id,
  })?.reported;
  return sealed ? ReportedSchema.parse(JSON.parse(cipher.open(customerPlace(id, 'reported'), sealed))) : {};
}

function toReconcile(sql: Statements): string[] {
  return sql
    .all<{ id: string }>(
      `SELECT id FROM customers WHERE section IN ('retry', 'document', 'review', 'kba', 'unverified', 'other')
         AND gone_at IS NULL
       ORDER BY status_since, id`,
    )
    .map(({ id }) => id);
}

function toCustomer(row: CustomerRow): JournalCustomer {
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    email: row.email,
    type: row.type,
    status: row.status,
    section: row.section,
    statusSince: row.status_since,
    created: row.created,
    lastRefreshed: row.last_refreshed,
    links: LinksSchema.parse(JSON.parse(row.links)),
    goneAt: row.gone_at,
    pendingDocuments: row.pending_documents,
    note: row.note,
    changedAt: row.changed_at,
  };
}

/**
 * What the update trigger of migration 7 makes `changed_at` after an upsert (which always clears gone_at):
 * the latest of the row's times when anything the queue shows changed, else as it was.
 */
function changedAtAfter(
  existing: CustomerRow,
  now: { status: string; section: string; name: string; email: string },
  times: string[],
): string {
  const moved =
    existing.status !== now.status ||
    existing.section !== now.section ||
    existing.name !== now.name ||
    existing.email !== now.email ||
    existing.gone_at !== null;
  return moved ? [...times, existing.changed_at].reduce(latest) : existing.changed_at;
}
