// The journal's SQLite connection (node:sqlite, built into Node 24 and Electron 45's Node: nothing to rebuild).
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { TransactionOptions } from './interface.ts';

export type Db = DatabaseSync;
export type Params = Record<string, SQLInputValue>;

const BUSY_TIMEOUT_MS = 5_000;
// SQLite's default page cache, 2 MB, set out loud. It was 32 MB for broad searches that visited rows all
// over a 100,000-customer journal; they walk indexes now, and `node bench/queue.ts` shows no difference
// (broad search at 100k 1.03 / 1.29 ms with 2 MB, 1.21 / 0.96 ms with 32 MB). A cache that size fills as the
// journal grows, and was most of the desk's memory growth over a day (`node bench/memory.ts`: RSS 1.12–1.14×
// with 8 MB, 1.08× with 2 MB). Sorts and statement journals stay in memory (temp_store): they are small, and
// no temp file is left behind.
const CACHE_KIB = 2_000;
const MAX_CACHED_STATEMENTS = 200;

/**
 * Opens (creating if needed) the journal file, private to the user: the file and its `-wal`/`-shm`
 * companions, which SQLite creates with the database file's permissions, are 0600 in a 0700 directory.
 * Only the connection is set up here; the pragmas that write (WAL) wait for `configure`, after the
 * schema version has been checked, so that a journal this version refuses is left untouched.
 */
export function openDatabase(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  // Defensive: no writable_schema tricks. Foreign keys on. The busy timeout only matters if a second
  // process (a second app instance, a reviewer's sqlite3 shell) holds a lock for a moment.
  return new DatabaseSync(file, {
    defensive: true,
    enableForeignKeyConstraints: true,
    timeout: BUSY_TIMEOUT_MS,
  });
}

/**
 * WAL: readers never block the writer, and a crash never leaves a half-written transaction.
 * synchronous=FULL rather than NORMAL: in WAL mode NORMAL survives an app crash but may lose the last
 * commits on power loss, and the journal records promises made to others that must survive that too: a
 * webhook event is answered 200 only once it is recorded (the service will not send it again), and an
 * outbox's Idempotency-Key is stored before its request leaves. Our writes are few (reviewer actions,
 * events, refreshes, batched in transactions), so one fsync per commit costs nothing anyone sees.
 */
export function configure(db: Db): void {
  db.exec(`PRAGMA journal_mode = WAL;
    PRAGMA synchronous = FULL;
    PRAGMA foreign_keys = ON;
    PRAGMA temp_store = MEMORY;
    PRAGMA cache_size = -${CACHE_KIB};`);
}

/**
 * Runs `fn` in a transaction: the outermost call is BEGIN IMMEDIATE (takes the write lock up front, so
 * it cannot fail half-way on a lock upgrade), nested calls are savepoints. Throwing rolls back.
 * `{ sync: 'later' }`: see `committedLater`; a nested call commits as its outermost transaction does.
 */
export function transaction<T>(db: Db, fn: () => T, options?: TransactionOptions): T {
  const nested = db.isTransaction;
  if (!nested && options?.sync === 'later') return committedLater(db, () => transaction(db, fn));
  const steps = transactionSteps(db);
  (nested ? steps.savepoint : steps.begin).run();
  try {
    const result = fn();
    (nested ? steps.release : steps.commit).run();
    return result;
  } catch (error) {
    // Some errors (disk full, I/O) make SQLite roll back by itself: then there is nothing left to undo.
    if (db.isTransaction) db.exec(nested ? 'ROLLBACK TO nested; RELEASE nested' : 'ROLLBACK');
    throw error;
  }
}

/**
 * The one way the journal commits without waiting for the disk (`TransactionOptions`' `sync: 'later'`):
 * `commit` (an outermost transaction, from BEGIN to COMMIT; synchronous or a promise) runs with
 * synchronous=NORMAL, and FULL is back once it has ended. For writes the journal can lose in a power cut at
 * no cost to anyone, because they are made again (a refresh from the service, an outcome learnt again by
 * replaying its key) or because another file holds them durably (the webhook inbox log). A kill loses
 * nothing committed; WAL frames are checksummed in order, so what survives a power cut is always a prefix
 * of the commits, never a later one alone. Transactions run one at a time on the connection, so no other
 * commit happens under the relaxed setting.
 */
export function committedLater<T>(db: Db, commit: () => T): T {
  // Executed, not prepared: SQLite applies this pragma when the statement is compiled, not when it runs.
  const syncNow = () => db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA synchronous = NORMAL');
  let result: T;
  try {
    result = commit();
  } catch (error) {
    syncNow();
    throw error;
  }
  if (!(result instanceof Promise)) {
    syncNow();
    return result;
  }
  return result.finally(syncNow) as T;
}

/**
 * The statements every transaction runs, prepared once per connection: parsing them again for every
 * savepoint cost more than the small writes inside (a created customer runs three levels of them).
 */
const preparedSteps = new WeakMap<Db, ReturnType<typeof prepareSteps>>();
const prepareSteps = (db: Db) => ({
  begin: db.prepare('BEGIN IMMEDIATE'),
  commit: db.prepare('COMMIT'),
  savepoint: db.prepare('SAVEPOINT nested'),
  release: db.prepare('RELEASE nested'),
});
export function transactionSteps(db: Db) {
  let steps = preparedSteps.get(db);
  if (!steps) {
    steps = prepareSteps(db);
    preparedSteps.set(db, steps);
  }
  return steps;
}

/**
 * Prepares each SQL text once. Rows are typed by the caller: the tables are STRICT, so a column holds
 * exactly the type the schema declares and the cast at this boundary is sound.
 */
export function statements(db: Db) {
  const cache = new Map<string, StatementSync>();
  const prepared = (sql: string): StatementSync => {
    let statement = cache.get(sql);
    if (!statement) {
      // Search SQL varies with the number of short words typed: keep the cache from growing without bound.
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  return {
    all: <T>(sql: string, params: Params = {}): T[] => prepared(sql).all(params) as T[],
    get: <T>(sql: string, params: Params = {}): T | undefined => prepared(sql).get(params) as T | undefined,
    run: (sql: string, params: Params = {}) => prepared(sql).run(params),
  };
}
export type Statements = ReturnType<typeof statements>;

/**
 * A repository of the journal interface as the SQLite implementation writes it: the same methods, answering
 * at once (node:sqlite is synchronous); `sqlite.ts` wraps each in a promise for callers.
 */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};
