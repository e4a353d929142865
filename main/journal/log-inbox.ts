import fs from 'node:fs';
import { type Db, type Statements, transaction } from './db.ts';
import { eventStatements, recordedEvents, type WriteStatement } from './events.ts';
import { createGroupCommit, type Outcome } from './group-commit.ts';
import { type InboxLog, LOG_HEADER_BYTES, openInboxLog, recordBytes } from './inbox-log.ts';
import type { EventInbox, InboxEvent } from './interface.ts';
import { createKnownEvents } from './known-events.ts';
import { rejectionStatements } from './rejections.ts';
import { type Clock, isoTime } from './time.ts';

/** The inbox log made these durable already: the journal's copy need not wait for the disk. */
const LATER_SYNC = { sync: 'later' } as const;

/**
 * The webhook listener's inbox on the SQLite journal. A group of deliveries is made durable by one
 * append and fdatasync of the inbox log (inbox-log.ts: pre-allocated, a fraction of a millisecond),
 * then written to the events table on main's connection in one transaction without a sync of its own
 * (synchronous=NORMAL for it: a crash of the app loses nothing, and the log covers a power cut). Only
 * then does a write resolve, so whoever reads the journal after a 200 finds the event. Groups form while
 * the previous one is on disk (group-commit.ts). At start, whatever the log holds is replayed into the
 * journal (a known event is left alone); when the log is full, the journal's files are synced and the
 * log starts over.
 *
 * Duplicates are told apart in memory (known-events.ts): a redelivery of an event the journal holds only
 * counts itself on main's connection (no log record, no sync: losing the count costs nothing) and is
 * answered at once; an event not known there takes the durable path, where the journal still decides.
 */
export interface LogInboxOptions {
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
}

export type LogInbox = EventInbox & {
  /** Event ids told apart in memory as known (recent ones, up to a bound). */
  readonly knownEvents: number;
  /** Events the log held at start, now in the journal. */
  readonly replayed: number;
  readonly log: Pick<InboxLog, 'used' | 'size'>;
};

type Rows = Record<string, unknown>[];
interface Write {
  statements: WriteStatement[];
  /** The log records that make this write durable (none for writes whose loss costs only work). */
  logged: Buffer[];
}
interface LoggedEvent {
  event: Omit<InboxEvent, 'processed'>;
  processed: boolean;
  receivedAt: string;
}

const SOON_MS = 50;

export function startLogInbox(options: LogInboxOptions): LogInbox {
  const { db, sql, clock } = options;
  const events = eventStatements(clock);
  const rejection = rejectionStatements(clock);
  const log = openInboxLog(
    options.logFile,
    options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes },
  );

  const run = (write: WriteStatement[]): Rows[] =>
    write.map((statement) => sql.all<Record<string, unknown>>(statement.sql, statement.params));
  /** One transaction for the group; if a write fails, again with a savepoint per write so it fails alone. */
  const apply = (writes: readonly WriteStatement[][]): Outcome<Rows[]>[] => {
    try {
      return transaction(
        db,
        () => writes.map((write) => ({ ok: true as const, value: run(write) })),
        LATER_SYNC,
      );
    } catch {
      return transaction(
        db,
        () =>
          writes.map((write): Outcome<Rows[]> => {
            try {
              return { ok: true, value: transaction(db, () => run(write)) };
            } catch (error) {
              return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
            }
          }),
        LATER_SYNC,
      );
    }
  };

  /** Everything committed to the journal so far, on disk: the log may forget it then. */
  const forgetLogged = () => {
    for (const file of [options.journalFile, `${options.journalFile}-wal`]) syncFile(file);
    log.reset();
  };

  const replayed = replay(log.recovered, (statements) => apply([statements]), events);
  forgetLogged();
  const known = createKnownEvents(sql, clock);

  const group = createGroupCommit<Write, Rows[]>({
    soonMs: SOON_MS,
    async commit(writes) {
      const logged = writes.flatMap((write) => write.logged);
      if (logged.length > 0) {
        const bytes = logged.reduce((sum, record) => sum + recordBytes(record), 0);
        // Every earlier group is in the journal by now (one group at a time): full means start over.
        if (!log.fits(bytes) && log.used > LOG_HEADER_BYTES) forgetLogged();
        await log.append(logged);
        options.onLogged?.();
      }
      const outcomes = await options.outside(() => apply(writes.map((write) => write.statements)));
      outcomes.forEach((outcome, i) => {
        if (outcome.ok && writes[i]?.logged.length) known.addRows(outcome.value);
      });
      return outcomes;
    },
  });

  /**
   * The events known in memory: a fetched one needs nothing; a delivered one has its duplicate counted
   * (rows returned). Any whose row is not found after all (never expected) goes the durable way.
   */
  const settleKnown = async (
    received: readonly InboxEvent[],
    delivered: boolean,
  ): Promise<[handled: Set<string>, duplicates: Rows]> => {
    const ids = received.filter((event) => known.has(event.id)).map((event) => event.id);
    if (ids.length === 0 || !delivered) return [new Set(ids), []];
    const rows = await options.outside(() => transaction(db, () => known.countDuplicates(ids), LATER_SYNC));
    return [new Set(rows.map((row) => row.id as string)), rows];
  };

  const writeSoon = (statements: WriteStatement[]) => group.write({ statements, logged: [] }, 'soon');

  return {
    replayed,
    log,
    get knownEvents() {
      return known.size;
    },
    stats: group.stats,
    flush: () => group.flush(),
    async record(received, { delivered }) {
      const receivedAt = isoTime(clock());
      const [handled, duplicates] = await settleKnown(received, delivered);
      const statements: WriteStatement[] = [];
      const logged: Buffer[] = [];
      for (const { processed, ...event } of received) {
        if (handled.has(event.id)) continue;
        // Fetched events the journal already has are left alone: a duplicate counts deliveries only.
        statements.push(events.record(event, { processed, onlyIfAbsent: !delivered, receivedAt }));
        logged.push(Buffer.from(JSON.stringify({ event, processed, receivedAt } satisfies LoggedEvent)));
      }
      if (statements.length === 0) return recordedEvents([duplicates]);
      const rows = await group.write({ statements, logged }, 'now');
      return recordedEvents([duplicates, ...rows]);
    },
    async markProcessed(ids) {
      await writeSoon([events.markProcessed(ids)]);
    },
    async recordRejection(entry) {
      await writeSoon(rejection(entry));
    },
    async close() {
      await group.flush().catch(() => {});
      group.refuse(new Error('The webhook inbox is closed.'));
      try {
        if (db.isOpen) forgetLogged();
      } finally {
        log.close();
      }
    },
  };
}

/** The log's records into the journal, each only if absent (the app may have written it before the crash). */
function replay(
  records: readonly Buffer[],
  apply: (statements: WriteStatement[]) => Outcome<Rows[]>[],
  events: ReturnType<typeof eventStatements>,
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
