// The journal: main's record of customers, their history, drafts and outbox, events and the audit log, which
// the reviewer's queue stands on. Every use of it outside this folder goes through what this file exports:
// the interface (interface.ts: repositories per concern whose methods return promises, a unit of work for
// writes that span several of them, the webhook inbox) and its data types (repositories/). Callers never learn which
// implementation runs; today it is SQLite (sqlite.ts), team mode adds PostgreSQL behind the same interface.
export type { DraftState } from '#contract/drafts.ts';
export { entryRecord, headRecord } from './audit-export.ts';
export { dueBefore } from './due-before.ts';
export { JournalError } from './errors.ts';
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
export type {
  AuditEntry,
  AuditFilter,
  AuditHead,
  AuditInput,
  AuditLink,
  AuditRepository,
  LinkedAuditEntry,
} from './repositories/audit.ts';
export type {
  CustomersRepository,
  JournalCustomer,
  Observation,
  ServiceCustomer,
  StatusChange,
  StatusSource,
  UpsertResult,
} from './repositories/customers.ts';
export type {
  DocumentImagesRepository,
  StoredImage,
  StoredImageInfo,
} from './repositories/document-images.ts';
export type {
  Draft,
  DraftSummary,
  DraftsRepository,
  OutboxEntry,
  OutboxRepository,
} from './repositories/drafts.ts';
export type { EventFilter, EventsRepository, JournalEvent, ReceivedEvent } from './repositories/events.ts';
export type { Note, NotesRepository } from './repositories/notes.ts';
export type { Address, PersonalData } from './repositories/personal-data.ts';
export type {
  ClaimScope,
  DueBefore,
  HolderCounts,
  OverdueCase,
  QueueRepository,
} from './repositories/queue.ts';
export type { Rejection, RejectionInput, RejectionsRepository } from './repositories/rejections.ts';
export type { RetriesRepository, RetryRecord } from './repositories/retries.ts';
export { type JournalOptions, LATEST_VERSION, openJournal, type SqliteJournal } from './sqlite.ts';
export type { Clock } from './time.ts';
