// The journal: main's record of customers, their history, drafts and outbox, events and the audit log, which
// the reviewer's queue stands on. Every use of it outside this folder goes through what this file exports:
// the interface (interface.ts: repositories per concern whose methods return promises, a unit of work for
// writes that span several of them, the webhook inbox) and its data types. Callers never learn which
// implementation runs; today it is SQLite (sqlite.ts), team mode adds PostgreSQL behind the same interface.
export type { AuditEntry, AuditFilter, AuditInput, AuditRepository } from './audit.ts';
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
  DocumentImagesRepository,
  StoredImage,
  StoredImageInfo,
} from './document-images.ts';
export type {
  Draft,
  DraftState,
  DraftSummary,
  DraftsRepository,
  OutboxEntry,
  OutboxRepository,
} from './drafts.ts';
export { JournalError } from './errors.ts';
export type { EventFilter, EventsRepository, JournalEvent, ReceivedEvent } from './events.ts';
export type {
  EventInbox,
  InboxEvent,
  InboxOptions,
  InboxPriority,
  Journal,
  JournalRepositories,
  JournalTransaction,
  RecordedEvents,
  TransactionOptions,
} from './interface.ts';
export type { Note, NotesRepository } from './notes.ts';
export type { Address, PersonalData } from './personal.ts';
export type { DueBefore, OverdueCase, QueueRepository } from './queue.ts';
export type { Rejection, RejectionInput, RejectionsRepository } from './rejections.ts';
export type { RetriesRepository, RetryRecord } from './retries.ts';
export { type JournalOptions, LATEST_VERSION, openJournal, type SqliteJournal } from './sqlite.ts';
export type { Clock } from './time.ts';
