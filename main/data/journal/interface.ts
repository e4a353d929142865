// The journal interface itself (index.ts re-exports it with the data types): what any implementation of the
// journal provides, and all that callers outside main/data/journal/ may rely on. It imports no implementation:
// each repository's interface and records are in repositories/, which the SQLite repositories (here) and the
// team store's (main/team/journal/) implement.
import type { AuditRepository } from './repositories/audit.ts';
import type { CustomersRepository } from './repositories/customers.ts';
import type { DocumentImagesRepository } from './repositories/document-images.ts';
import type { DraftsRepository, OutboxRepository } from './repositories/drafts.ts';
import type { EventsRepository, JournalEvent, ReceivedEvent } from './repositories/events.ts';
import type { NotesRepository } from './repositories/notes.ts';
import type { QueueRepository } from './repositories/queue.ts';
import type { RejectionInput, RejectionsRepository } from './repositories/rejections.ts';
import type { RetriesRepository } from './repositories/retries.ts';

/** The journal's repositories, one per concern. */
export interface JournalRepositories {
  readonly customers: CustomersRepository;
  readonly queue: QueueRepository;
  readonly drafts: DraftsRepository;
  readonly outbox: OutboxRepository;
  readonly events: EventsRepository;
  /** The one-time verification retry of each customer, recorded as used. */
  readonly retries: RetriesRepository;
  readonly audit: AuditRepository;
  /** The webhook listener's security log: requests it refused. */
  readonly rejections: RejectionsRepository;
  /** Reviewers' notes on cases (encrypted). */
  readonly notes: NotesRepository;
  /** Images of documents uploaded from this desk (encrypted, purgeable). */
  readonly documentImages: DocumentImagesRepository;
}

/**
 * A unit of work: repositories bound to one transaction. Use only these inside it (the journal outside waits
 * for the transaction to end), never wait on the network inside it, and do not run nested ones side by side.
 */
export interface JournalTransaction extends JournalRepositories {
  /** A nested unit of work (a savepoint): throwing rolls back only what it did. */
  transaction<T>(work: (tx: JournalTransaction) => Promise<T>): Promise<T>;
}

/** How a transaction's commit reaches the disk. */
export interface TransactionOptions {
  /**
   * 'now' (the default): on the disk when the transaction resolves. 'later': committed all the same (Vetted
   * stopping or being killed loses nothing), but not waited on to reach the disk, so a power cut may lose it
   * together with whatever was committed after it, never without it. Only for writes whose loss means some
   * work is done again: an outbox outcome, learnt again by replaying the draft's key; a customer refreshed
   * from the service, fetched again.
   */
  sync?: 'now' | 'later';
}

export interface Journal extends JournalRepositories {
  readonly schemaVersion: number;
  /** Runs `work` atomically; throwing rolls it all back. */
  transaction<T>(work: (tx: JournalTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** A writer for the webhook listener, durable and grouped; its owner closes it. */
  openInbox(options?: InboxOptions): EventInbox;
  close(): Promise<void>;
}

/** An event as the inbox records it: `processed` when recording it is all there is to do with it. */
export interface InboxEvent extends ReceivedEvent {
  processed: boolean;
}

/** The listener's load, as an inbox sees it (main/features/webhooks/delivery-pressure.ts measures it). */
export interface InboxPriority {
  /** Whether deliveries arrive fast enough that the table writes should wait. */
  readonly busy: boolean;
  /** Calls `callback` once, when `busy` has turned false. */
  onQuiet(callback: () => void): void;
}

export type RecordedEvents = Array<{ event: JournalEvent; duplicate: boolean }>;

export interface InboxOptions {
  /**
   * Told of events once they are in the journal's events table (new ones, and deliveries counted as
   * duplicates), in the order they were recorded: processing and announcing start there.
   */
  onRecorded?(events: RecordedEvents): void;
  /** The listener's load: while deliveries pour in, an inbox may keep its table writes behind the answers. */
  priority?: InboxPriority;
}

/**
 * The webhook listener's writes. Committed off the main thread and in groups (one sync serves many
 * deliveries), so that main keeps reading, verifying and answering while a commit is on disk.
 */
export interface EventInbox {
  /**
   * Records events once each, durable when it resolves (the listener answers 200 only then). A delivered
   * event seen before counts as a duplicate; a fetched one (`delivered: false`) already known is left alone.
   * The events table may have them only later (then `onRecorded` hears of them, and `flush` waits for them):
   * a duplicate not told apart in memory is answered as new, and counted in the table.
   */
  record(events: readonly InboxEvent[], options: { delivered: boolean }): Promise<RecordedEvents>;
  /** Committed with the next group, or shortly: losing it in a crash only means processing them again. */
  markProcessed(ids: readonly string[]): Promise<void>;
  /** The security log, written lazily like `markProcessed`: a flood of bad requests costs next to no syncs. */
  recordRejection(entry: RejectionInput): Promise<void>;
  /** Resolves once everything asked for so far is committed (before reading it back). */
  flush(): Promise<void>;
  /** Groups committed, writes in them, and time spent committing them: how grouping works under load. */
  readonly stats: { commits: number; writes: number; committingMs: number };
  /**
   * Events durable but kept behind the answers during a flood: not yet in the events table (the solo inbox), or
   * in it but not yet handed to processing (the team store's).
   */
  readonly behind: number;
  /** Commits what is waiting, then stops. */
  close(): Promise<void>;
}
