// The journal on SQLite (node:sqlite, synchronous and fast): the repositories answer at once, and are wrapped in
// promises here for the interface (index.ts), which costs microseconds. One connection serves main; the
// webhook inbox writes on main's too, made durable first by its own log (event-inbox.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StatementSync } from 'node:sqlite';
import type { Trends, TrendsQuery } from '#contract/trends.ts';
import { osUserName } from '#main/ground/os-user.ts';
import { auditRepository } from './audit.ts';
import { type AuditSealer, auditSealer } from './audit-chain.ts';
import { customersRepository } from './customers.ts';
import {
  committedLater,
  configure,
  type Db,
  openDatabase,
  type Statements,
  statements,
  transactionSteps,
} from './db.ts';
import { type DeskHistory, deskHistory } from './desk-history.ts';
import { documentImagesRepository } from './document-images.ts';
import { draftsRepository, outboxRepository } from './drafts.ts';
import { JournalError } from './errors.ts';
import { type LogInbox, type LogInboxOptions, startLogInbox } from './event-inbox.ts';
import { type EventStatements, eventsRepository, type WriteStatement } from './events.ts';
import type { Journal, JournalRepositories, JournalTransaction, TransactionOptions } from './interface.ts';
import { LATEST_VERSION, MIGRATIONS } from './migrations/index.ts';
import { checkCanMigrate, type MigrationContext, migrate, schemaVersion } from './migrations/runner.ts';
import { notesRepository } from './notes.ts';
import { type PersonalCipher, personalCipher } from './personal.ts';
import { queueRepository } from './queue.ts';
import { rejectionsRepository } from './rejections.ts';
import { type Replica, replicaRepository } from './replica.ts';
import type { EventsRepository, JournalEvent } from './repositories/events.ts';
import type { RejectionInput, RejectionsRepository } from './repositories/rejections.ts';
import { retriesRepository } from './retries.ts';
import { type Clock, systemClock } from './time.ts';
import { journalTrends } from './trends.ts';

export { LATEST_VERSION } from './migrations/index.ts';

export interface JournalOptions {
  /** The database file, e.g. `<data dir>/journal.db`; created (0600) if absent. */
  file: string;
  /** The vault's data key (`Vault.dataKey()`): encrypts personal data. */
  dataKey: Buffer;
  /** For tests; defaults to the system clock. */
  clock?: Clock;
  /** Who acts at this desk, for the audit log and notes; the OS user by default (solo mode). */
  actor?: string;
}

/** The SQLite journal: the interface, plus what only its own tests and tools use (the file, SQL text). */
export interface SqliteJournal extends Journal {
  readonly file: string;
  readonly events: EventsRepository & {
    readonly statements: EventStatements;
    fromRow(row: unknown): JournalEvent;
  };
  readonly rejections: RejectionsRepository & { statements(entry: RejectionInput): WriteStatement[] };
  openInbox(
    options?: Pick<LogInboxOptions, 'chunkBytes' | 'onLogged' | 'maxBehind' | 'onRecorded' | 'priority'>,
  ): LogInbox;
  /** Team mode: the local copy of the team store's rows (replica.ts); not part of the interface. */
  readonly replica: Replica;
  /** What this desk did in solo mode, for bringing into a team (desk-history.ts). */
  readonly history: DeskHistory;
  /** The trends of a solo desk, counted from this journal (trends.ts). */
  readonly trends: { read(query: TrendsQuery): Promise<Trends> };
}

/**
 * Opens the journal, migrating it to the latest schema. Throws `JournalError`, leaving the file untouched,
 * for a journal written by a newer Vetted or a file that is not a journal.
 */
export function openJournal({
  file,
  dataKey,
  clock = systemClock,
  actor = osUserName(),
}: JournalOptions): SqliteJournal {
  const cipher = personalCipher(dataKey);
  const sealer = auditSealer(dataKey);
  const db = openDatabase(file);
  try {
    checkCanMigrate(db, file, MIGRATIONS);
    configure(db);
    migrateExplaining(db, file, { dataKey, actor, clock });
  } catch (error) {
    db.close();
    throw error;
  }
  const sql = statements(db);
  const sync = repositories(db, sql, { cipher, sealer }, clock, actor);
  const units = unitsOfWork(db);
  const inTransaction = (repos: JournalRepositories): JournalTransaction => ({
    ...repos,
    transaction: (work) => units.nested(() => work(inTransaction(repos))),
  });
  // Inside a transaction its repositories answer at once; outside, calls wait for any transaction to end.
  const bound = promised(sync, answerNow);
  const outside = promised(sync, units.outside);
  const replica = replicaRepository(db, sql, cipher);
  const history = deskHistory(sql, cipher);
  const trends = journalTrends(sql, clock);
  return {
    file,
    schemaVersion: schemaVersion(db),
    ...outside,
    events: { ...outside.events, statements: sync.events.statements, fromRow: sync.events.fromRow },
    rejections: { ...outside.rejections, statements: sync.rejections.statements },
    replica: {
      applyChanges: (changes) => units.outside(() => replica.applyChanges(changes)),
      lastSeq: () => units.outside(() => replica.lastSeq()),
      claim: (customerId) => units.outside(() => replica.claim(customerId)),
    },
    history: {
      deskId: () => units.outside(() => history.deskId()),
      counts: () => units.outside(() => history.counts()),
      notesAfter: (seq, limit) => units.outside(() => history.notesAfter(seq, limit)),
      customersAfter: (id, limit) => units.outside(() => history.customersAfter(id, limit)),
      teamNotesBy: (author) => units.outside(() => history.teamNotesBy(author)),
    },
    trends: { read: (query) => units.outside(() => trends.read(query)) },
    transaction: (work, options) => units.outermost(() => work(inTransaction(bound)), options),
    openInbox: (inbox = {}) =>
      startLogInbox({
        db,
        sql,
        journalFile: file,
        logFile: `${file}.inbox`,
        clock,
        outside: units.outside,
        ...inbox,
      }),
    async close() {
      await units.settled();
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

function repositories(
  db: Db,
  sql: Statements,
  { cipher, sealer }: { cipher: PersonalCipher; sealer: AuditSealer },
  clock: Clock,
  actor: string,
) {
  const notes = notesRepository(sql, cipher, clock, actor);
  return {
    customers: customersRepository(db, sql, cipher, clock),
    queue: queueRepository(sql, notes.customersMatching),
    drafts: draftsRepository(sql, cipher, clock),
    outbox: outboxRepository(sql, clock),
    events: eventsRepository(sql, clock),
    retries: retriesRepository(sql, clock),
    audit: auditRepository(sql, clock, actor, sealer),
    rejections: rejectionsRepository(sql, clock),
    notes,
    documentImages: documentImagesRepository(sql, cipher, clock),
  };
}

type Repositories = ReturnType<typeof repositories>;
type Run = <R>(call: () => R) => Promise<R>;
const answerNow: Run = (call) => new Promise((resolve) => resolve(call()));

/** Every repository method, answering through `run` with a promise. */
function promised(sync: Repositories, run: Run): JournalRepositories {
  const wrap = <T extends object>(repository: T) =>
    Object.fromEntries(
      Object.entries(repository).map(([name, value]) => [
        name,
        typeof value === 'function' ? (...args: unknown[]) => run(() => value(...args)) : value,
      ]),
    ) as unknown as {
      [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : T[K];
    };
  return Object.fromEntries(
    Object.entries(sync).map(([name, repository]) => [name, wrap(repository)]),
  ) as unknown as JournalRepositories;
}

/**
 * Transactions on the one connection. Work inside a transaction awaits, so other callers' statements could
 * run in the middle of it and join it: they wait for it to end instead. Transactions queue up and run one
 * at a time, in the order they were asked for (a chain of promises: whoever comes next waits for the one
 * before, so two waiters can never both start when one ends). A call from inside a transaction's own work
 * to the journal outside it would wait for ever: it throws.
 */
function unitsOfWork(db: Db) {
  /** The transaction running now, if any: calls outside it wait for it. */
  let open: Promise<void> | null = null;
  /** Settles when every transaction asked for so far has ended. */
  let queue: Promise<void> = Promise.resolve();
  const context = new AsyncLocalStorage<true>();
  const refuseInside = () => {
    if (context.getStore()) {
      throw new JournalError(
        'Inside a journal transaction, use the repositories it gives (tx), not the journal.',
      );
    }
  };
  const idle = async () => {
    refuseInside();
    while (open) await open;
  };
  const steps = transactionSteps(db);
  const finish = async <T>(
    begin: StatementSync,
    commit: StatementSync,
    rollback: string,
    work: () => Promise<T>,
  ) => {
    begin.run();
    try {
      const result = await work();
      commit.run();
      return result;
    } catch (error) {
      // Some errors (disk full, I/O) make SQLite roll back by itself: then there is nothing left to undo.
      if (db.isTransaction) db.exec(rollback);
      throw error;
    }
  };
  return {
    /** Resolves once no transaction is running or waiting (before closing). */
    async settled() {
      refuseInside();
      for (let seen = queue; ; seen = queue) {
        await seen;
        if (seen === queue) return;
      }
    },
    /** Runs at once when no transaction is open (so calls keep their order), else after it. */
    outside: ((call) => (open || context.getStore() ? idle().then(call) : answerNow(call))) as Run,
    async outermost<T>(work: () => Promise<T>, options?: TransactionOptions): Promise<T> {
      refuseInside();
      const before = queue;
      let end!: () => void;
      const ended = new Promise<void>((resolve) => {
        end = resolve;
      });
      queue = ended;
      await before;
      open = ended;
      const commit = () => context.run(true, () => finish(steps.begin, steps.commit, 'ROLLBACK', work));
      try {
        return await (options?.sync === 'later' ? committedLater(db, commit) : commit());
      } finally {
        open = null;
        end();
      }
    },
    nested: <T>(work: () => Promise<T>) =>
      finish(steps.savepoint, steps.release, 'ROLLBACK TO nested; RELEASE nested', work),
  };
}

function migrateExplaining(db: Db, file: string, context: MigrationContext): void {
  const from = schemaVersion(db);
  try {
    migrate(db, MIGRATIONS, context);
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
