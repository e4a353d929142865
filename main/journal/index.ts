// The journal: main's local SQLite record of customers, their history, drafts and outbox, events and the
// audit log, which the reviewer's queue stands on. Opened by main only; personal data encrypted.
import { type AuditRepository, auditRepository } from './audit.ts';
import { type CustomersRepository, customersRepository } from './customers.ts';
import { configure, type Db, openDatabase, statements, transaction } from './db.ts';
import {
  type DraftsRepository,
  draftsRepository,
  type OutboxRepository,
  outboxRepository,
} from './drafts.ts';
import { JournalError } from './errors.ts';
import { type EventsRepository, eventsRepository } from './events.ts';
import { checkCanMigrate, LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from './migrations.ts';
import { personalCipher } from './personal.ts';
import { type QueueRepository, queueRepository } from './queue.ts';
import { type RejectionsRepository, rejectionsRepository } from './rejections.ts';
import { type RetriesRepository, retriesRepository } from './retries.ts';
import { type Clock, systemClock } from './time.ts';

export type { AuditEntry, AuditInput, AuditRepository } from './audit.ts';
export type {
  CustomersRepository,
  JournalCustomer,
  Observation,
  ServiceCustomer,
  StatusChange,
  StatusSource,
  UpsertResult,
} from './customers.ts';
export type {
  Draft,
  DraftState,
  DraftSummary,
  DraftsRepository,
  OutboxEntry,
  OutboxRepository,
} from './drafts.ts';
export { JournalError } from './errors.ts';
export type { EventFilter, EventsRepository, JournalEvent, ReceivedEvent, WriteStatement } from './events.ts';
export { LATEST_VERSION } from './migrations.ts';
export type { Address, PersonalData } from './personal.ts';
export type { QueueRepository } from './queue.ts';
export type { Rejection, RejectionInput, RejectionsRepository } from './rejections.ts';
export type { RetriesRepository, RetryRecord } from './retries.ts';
export type { Clock } from './time.ts';

export interface JournalOptions {
  /** The database file, e.g. `<data dir>/journal.db`; created (0600) if absent. */
  file: string;
  /** The vault's data key (`Vault.dataKey()`): encrypts personal data. */
  dataKey: Buffer;
  /** For tests; defaults to the system clock. */
  clock?: Clock;
}

export interface Journal {
  readonly file: string;
  readonly schemaVersion: number;
  readonly customers: CustomersRepository;
  readonly queue: QueueRepository;
  readonly drafts: DraftsRepository;
  readonly outbox: OutboxRepository;
  readonly events: EventsRepository;
  readonly retries: RetriesRepository;
  readonly audit: AuditRepository;
  /** The webhook listener's security log: requests it refused. */
  readonly rejections: RejectionsRepository;
  /** Runs `fn` atomically (nested calls are savepoints); throwing rolls it all back. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/**
 * Opens the journal, migrating it to the latest schema. Throws `JournalError`, leaving the file untouched,
 * for a journal written by a newer Vetted or a file that is not a journal.
 */
export function openJournal({ file, dataKey, clock = systemClock }: JournalOptions): Journal {
  const cipher = personalCipher(dataKey);
  const db = openDatabase(file);
  try {
    checkCanMigrate(db, file);
    configure(db);
    migrateExplaining(db, file);
  } catch (error) {
    db.close();
    throw error;
  }
  const sql = statements(db);
  return {
    file,
    schemaVersion: schemaVersion(db),
    customers: customersRepository(db, sql, cipher, clock),
    queue: queueRepository(sql),
    drafts: draftsRepository(sql, cipher, clock),
    outbox: outboxRepository(sql, clock),
    events: eventsRepository(sql, clock),
    retries: retriesRepository(sql, clock),
    audit: auditRepository(sql, clock),
    rejections: rejectionsRepository(sql, clock),
    transaction: (fn) => transaction(db, fn),
    close() {
      if (!db.isOpen) return;
      // Upkeep, cheap when nothing changed: the planner's statistics, and the search index merged into one
      // segment (each commit adds a small one; a search probes every segment, so they would add up).
      try {
        db.exec(`PRAGMA optimize; INSERT INTO customer_search (customer_search) VALUES ('optimize');`);
      } finally {
        db.close();
      }
    },
  };
}

function migrateExplaining(db: Db, file: string): void {
  const from = schemaVersion(db);
  try {
    migrate(db);
  } catch (cause) {
    const reached = schemaVersion(db);
    const failed = MIGRATIONS[reached];
    throw new JournalError(
      `Could not update the journal ${file} from schema ${from} to ${LATEST_VERSION}: migration ` +
        `${failed?.version} (${failed?.name}) failed and was rolled back; the journal stays at schema ${reached}.`,
      { cause },
    );
  }
}
