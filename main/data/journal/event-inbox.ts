import fs from 'node:fs';
import { type Db, type Statements, transaction } from './db.ts';
import { type EventStatements, eventStatements, recordedEvents, type WriteStatement } from './events.ts';
import { createGroupCommit, type GroupCommit, type Outcome } from './group-commit.ts';
import { createInboxBacklog, type InboxBacklog } from './inbox-backlog.ts';
import { type InboxLog, LOG_HEADER_BYTES, openInboxLog, recordBytes } from './inbox-file.ts';
import type { EventInbox, InboxEvent, InboxOptions, RecordedEvents } from './interface.ts';
import { createKnownEvents, type KnownEvents } from './known-events.ts';
import { rejectionStatements } from './rejections.ts';
import type { JournalEvent } from './repositories/events.ts';
import { type Clock, isoTime } from './time.ts';

/** The inbox log made these durable already: the journal's copy need not wait for the disk. */
const LATER_SYNC = { sync: 'later' } as const;

/**
 * The webhook listener's inbox on the SQLite journal. A group of deliveries is made durable by one
 * append and fdatasync of the inbox log (inbox-file.ts: pre-allocated, a fraction of a millisecond), and a
 * record resolves then: the listener answers 200 at the pace of the log. Writing the events into the events
 * table comes behind the answers (inbox-backlog.ts: at once while deliveries are few, held back while they
 * pour in, up to a bound), on main's connection in batches without a sync of their own (synchronous=NORMAL:
 * a crash of the app loses nothing, and the log covers a power cut). `onRecorded` hears of each event once
 * it is in the table: processing starts from there. Deliveries read while a group is written and synced
 * form the next (group-commit.ts). At start, whatever the log holds is replayed into the journal (a known
 * event is left alone); when the log is full and everything in it is in the table, the journal's files are
 * synced and the log starts over (until then it grows).
 *
 * Duplicates are told apart in memory (known-events.ts): a redelivery of an event the journal holds only
 * counts itself on main's connection (no log record, no sync: losing the count costs nothing) and is
 * answered at once; an event not known there (or still behind) takes the durable path, and the table's
 * primary key decides when it is written: a redelivery then counts as a duplicate there.
 */
export interface LogInboxOptions extends InboxOptions {
  db: Db;
  sql: Statements;
  /** The journal's database file: synced (with its -wal) before the log forgets anything. */
  journalFile: string;
  logFile: string;
  clock: Clock;
  /** Runs `call` once no journal transaction is open (main's connection is shared). */
  outside<R>(call: () => R): Promise<R>;
  chunkBytes?: number;
  /** For tests: called once a group is durable in the log, before it is written to the journal. */
  onLogged?(): void;
  /** For tests: the bound of events held back (inbox-backlog.ts). */
  maxBehind?: number;
}

export type LogInbox = EventInbox & {
  /** Event ids told apart in memory as known (recent ones, up to a bound). */
  readonly knownEvents: number;
  /** Events the log held at start, now in the journal. */
  readonly replayed: number;
  readonly log: Pick<InboxLog, 'used' | 'size'>;
};

type Rows = Record<string, unknown>[];
/** A write for the tables, behind the answers: a record's events, a mark or a refusal. */
interface Behind {
  statements: WriteStatement[];
  /** For a record: its events go to `onRecorded` once written. */
  recorded: boolean;
  done(outcome: Outcome<Rows[]>): void;
}
interface LoggedEvent {
  event: Omit<InboxEvent, 'processed'>;
  processed: boolean;
  receivedAt: string;
}

const SOON_MS = 50;

/** What the inbox's parts share once it is open. */
interface LogState {
  options: LogInboxOptions;
  log: InboxLog;
  known: KnownEvents;
  /** A logged event whose table write failed stays in the log (replayed at the next start): never reset. */
  keepLog: boolean;
}

type LogGroup = GroupCommit<{ statements: WriteStatement[]; logged: Buffer[] }, null>;

export function startLogInbox(options: LogInboxOptions): LogInbox {
  const { db, sql, clock } = options;
  const events = eventStatements(clock);
  const rejection = rejectionStatements(clock);
  const log = openInboxLog(
    options.logFile,
    options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes },
  );
  const replayed = replay(log.recovered, (statements) => applyWrites(db, sql, [statements]), events);
  forgetLogged(options.journalFile, log);
  const state: LogState = { options, log, known: createKnownEvents(sql, clock), keepLog: false };
  const backlog = behindTheAnswers(state);
  const group = logGroup(state, backlog);
  return {
    replayed,
    log,
    get knownEvents() {
      return state.known.size;
    },
    get behind() {
      return backlog.events;
    },
    stats: group.stats,
    async flush() {
      await group.flush();
      await backlog.flush();
    },
    record: (received, { delivered }) => recordReceived(state, group, events, received, delivered),
    markProcessed: (ids) => writeSoon(backlog, [events.markProcessed(ids)]),
    recordRejection: (entry) => writeSoon(backlog, rejection(entry)),
    async close() {
      await group.flush().catch(() => {});
      group.refuse(new Error('The webhook inbox is closed.'));
      await backlog.flush();
      try {
        if (db.isOpen && !state.keepLog) forgetLogged(options.journalFile, log);
      } finally {
        log.close();
      }
    },
  };
}

const runWrite = (sql: Statements, write: WriteStatement[]): Rows[] =>
  write.map((statement) => sql.all<Record<string, unknown>>(statement.sql, statement.params));

/** One transaction for the group; if a write fails, again with a savepoint per write so it fails alone. */
function applyWrites(db: Db, sql: Statements, writes: readonly WriteStatement[][]): Outcome<Rows[]>[] {
  try {
    return transaction(
      db,
      () => writes.map((write) => ({ ok: true as const, value: runWrite(sql, write) })),
      LATER_SYNC,
    );
  } catch {
    return transaction(
      db,
      () =>
        writes.map((write): Outcome<Rows[]> => {
          try {
            return { ok: true, value: transaction(db, () => runWrite(sql, write)) };
          } catch (error) {
            return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
          }
        }),
      LATER_SYNC,
    );
  }
}

/** Everything committed to the journal so far, on disk: the log may forget it then. */
function forgetLogged(journalFile: string, log: InboxLog): void {
  for (const file of [journalFile, `${journalFile}-wal`]) syncFile(file);
  log.reset();
}

/** The table writes, behind the answers: a record's events go to `onRecorded` once written. */
function behindTheAnswers(state: LogState): InboxBacklog<Behind> {
  const { options } = state;
  return createInboxBacklog<Behind>({
    priority: options.priority,
    ...(options.maxBehind === undefined ? {} : { maxEvents: options.maxBehind }),
    async write(batch) {
      let outcomes: Outcome<Rows[]>[];
      try {
        outcomes = await options.outside(() =>
          applyWrites(
            options.db,
            options.sql,
            batch.map((behind) => behind.statements),
          ),
        );
      } catch (error) {
        // Not even the transaction began (the journal closing, the disk gone): each write fails as a whole.
        const failed = error instanceof Error ? error : new Error(String(error));
        outcomes = batch.map(() => ({ ok: false, error: failed }));
      }
      const recorded: RecordedEvents = [];
      batch.forEach((behind, i) => {
        const outcome = outcomes[i] ?? { ok: false, error: new Error('Not written.') };
        if (behind.recorded) {
          if (outcome.ok) recorded.push(...recordedEvents(outcome.value));
          else state.keepLog = true;
        }
        behind.done(outcome);
      });
      if (recorded.length > 0) options.onRecorded?.(recorded);
    },
  });
}

/** A mark or a refusal: resolves once written (losing one in a crash only means some work again). */
function writeSoon(backlog: InboxBacklog<Behind>, statements: WriteStatement[]): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    backlog.push(
      { statements, recorded: false, done: (outcome) => (outcome.ok ? resolve() : reject(outcome.error)) },
      0,
      'soon',
    ),
  );
}

/** Durable in the log: the group's appends, one fdatasync; then their table writes queue behind. */
function logGroup(state: LogState, backlog: InboxBacklog<Behind>): LogGroup {
  const { log, options } = state;
  return createGroupCommit({
    soonMs: SOON_MS,
    async commit(writes) {
      const logged = writes.flatMap((write) => write.logged);
      const bytes = logged.reduce((sum, record) => sum + recordBytes(record), 0);
      // Full, and every record in it is in the table: start over rather than grow.
      if (!log.fits(bytes) && log.used > LOG_HEADER_BYTES && backlog.idle && !state.keepLog) {
        forgetLogged(options.journalFile, log);
      }
      await log.append(logged);
      options.onLogged?.();
      return writes.map((write) => {
        state.known.add(write.statements.map((statement) => statement.params.id as string));
        // The answer does not wait for this write; one that fails keeps the log (see keepLog).
        backlog.push(
          { statements: write.statements, recorded: true, done: () => {} },
          write.statements.length,
        );
        return { ok: true as const, value: null };
      });
    },
  });
}

/**
 * The events known in memory: a fetched one needs nothing; a delivered one has its duplicate counted
 * (rows returned). Any whose row is not found (forgotten, or still behind) goes the durable way.
 */
async function settleKnown(
  { known, options }: LogState,
  received: readonly InboxEvent[],
  delivered: boolean,
): Promise<[handled: Set<string>, duplicates: Rows]> {
  const ids = received.filter((event) => known.has(event.id)).map((event) => event.id);
  if (ids.length === 0 || !delivered) return [new Set(ids), []];
  const rows = await options.outside(() =>
    transaction(options.db, () => known.countDuplicates(ids), LATER_SYNC),
  );
  return [new Set(rows.map((row) => row.id as string)), rows];
}

async function recordReceived(
  state: LogState,
  group: LogGroup,
  events: EventStatements,
  received: readonly InboxEvent[],
  delivered: boolean,
): Promise<RecordedEvents> {
  const receivedAt = isoTime(state.options.clock());
  const [handled, duplicates] = await settleKnown(state, received, delivered);
  const counted = recordedEvents([duplicates]);
  if (counted.length > 0) state.options.onRecorded?.(counted);
  const statements: WriteStatement[] = [];
  const logged: Buffer[] = [];
  for (const { processed, ...event } of received) {
    if (handled.has(event.id)) continue;
    // Fetched events the journal already has are left alone: a duplicate counts deliveries only.
    statements.push(events.record(event, { processed, onlyIfAbsent: !delivered, receivedAt }));
    logged.push(Buffer.from(JSON.stringify({ event, processed, receivedAt } satisfies LoggedEvent)));
  }
  if (statements.length === 0) return counted;
  await group.write({ statements, logged }, 'now');
  // As the table will hold them; whether one was seen before after all, the table says (onRecorded).
  return [...counted, ...statements.map((statement) => ({ event: eventOf(statement), duplicate: false }))];
}

/** The event a record statement writes, as its row will read. */
function eventOf({ params }: WriteStatement): JournalEvent {
  return {
    id: params.id as string,
    topic: params.topic as string,
    resourceId: params.resourceId as string,
    customerId: (params.customerId as string | null) ?? null,
    created: params.created as string,
    receivedAt: params.receivedAt as string,
    signatureVerified: params.verified === 1,
    duplicatesSeen: 0,
    processedAt: (params.processedAt as string | null) ?? null,
  };
}

/** The log's records into the journal, each only if absent (the app may have written it before the crash). */
function replay(
  records: readonly Buffer[],
  apply: (statements: WriteStatement[]) => Outcome<Rows[]>[],
  events: EventStatements,
): number {
  if (records.length === 0) return 0;
  const statements = records.map((record) => {
    const { event, processed, receivedAt } = JSON.parse(record.toString('utf8')) as LoggedEvent;
    return events.record(event, { processed, onlyIfAbsent: true, receivedAt });
  });
  const [outcome] = apply(statements);
  if (!outcome?.ok) throw outcome?.error ?? new Error('The webhook inbox could not be replayed.');
  return records.length;
}

function syncFile(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r+');
  } catch (error) {
    // No -wal yet (nothing written since it was last checkpointed away): nothing to sync.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
