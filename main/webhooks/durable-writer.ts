import { Worker } from 'node:worker_threads';
import type { WriteStatement } from '../journal/index.ts';

/**
 * The listener's writes to the journal, committed (fsync: synchronous=FULL) on a connection of their
 * own in a worker thread, so that main keeps reading, verifying and answering while a commit is on
 * disk. Writes asked for while a commit is under way form the next group: under load, one fsync
 * serves many deliveries. A write is a list of statements run in one savepoint; it resolves with
 * each statement's `RETURNING` rows once committed, and one that fails fails alone.
 */
export type Rows = Record<string, unknown>[];

export interface DurableWriter {
  /** Committed as soon as possible: the caller is waiting to say it is durable. */
  write(statements: WriteStatement[]): Promise<Rows[]>;
  /**
   * For a write whose loss in a crash only means some work is done again (an event marked
   * processed): it joins the next group, or is committed after a short while if none comes.
   */
  writeSoon(statements: WriteStatement[]): Promise<Rows[]>;
  /** Resolves once everything asked for so far is committed (before reading it back). */
  flush(): Promise<void>;
  /** Groups committed, writes in them, and time spent committing them, since start: how grouping works under load. */
  readonly stats: { commits: number; writes: number; committingMs: number };
  /** Commits what is waiting, then stops the worker and its connection. */
  close(): Promise<void>;
}

type Outcome = { ok: true; rows: Rows[] } | { ok: false; error: string };

interface Pending {
  statements: WriteStatement[];
  resolve(rows: Rows[]): void;
  reject(error: Error): void;
}

const SOON_MS = 50;

// Plain JavaScript, evaluated in the worker: nothing to bundle, the same under Electron and Node.
// A group is tried as one transaction; if a write in it fails, again with a savepoint per write.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file, { timeout: 5000, defensive: true, enableForeignKeyConstraints: true });
db.exec('PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
// Statements arrive as [number, params]; each SQL text is sent once, with its number, before its first use.
const texts = new Map();
const prepared = new Map();
const statement = (sqlId) => {
  let found = prepared.get(sqlId);
  if (!found) prepared.set(sqlId, (found = db.prepare(texts.get(sqlId))));
  return found;
};
const run = (write) => write.map(([sqlId, params]) => statement(sqlId).all(params));
const describe = (error) => (error instanceof Error ? error.message : String(error));
const inTransaction = (body) => {
  db.exec('BEGIN IMMEDIATE');
  try {
    const outcomes = body();
    db.exec('COMMIT');
    return outcomes;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
};
const oneByOne = (group) =>
  group.map((write) => {
    db.exec('SAVEPOINT write');
    try {
      const rows = run(write);
      db.exec('RELEASE write');
      return { ok: true, rows };
    } catch (error) {
      db.exec('ROLLBACK TO write; RELEASE write');
      return { ok: false, error: describe(error) };
    }
  });
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.postMessage('closed');
    return;
  }
  for (const [sqlId, sql] of message.texts) texts.set(sqlId, sql);
  const group = message.group;
  let outcomes;
  try {
    outcomes = inTransaction(() => group.map((write) => ({ ok: true, rows: run(write) })));
  } catch {
    try {
      outcomes = inTransaction(() => oneByOne(group));
    } catch (error) {
      outcomes = group.map(() => ({ ok: false, error: describe(error) }));
    }
  }
  parentPort.postMessage(outcomes);
});
`;

export function startDurableWriter(file: string): DurableWriter {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } });
  // Only a commit under way keeps the process alive.
  worker.unref();
  const stats = { commits: 0, writes: 0, committingMs: 0 };
  let sentAt = 0;
  let waiting: Pending[] = [];
  let committing: Pending[] | null = null;
  let scheduled: NodeJS.Immediate | null = null;
  let soon: NodeJS.Timeout | null = null;
  let failure: Error | null = null;

  const fail = (error: Error) => {
    failure ??= error;
    for (const pending of [...(committing ?? []), ...waiting]) pending.reject(failure);
    committing = null;
    waiting = [];
  };
  worker.on('error', (error) => fail(new Error(`The journal writer stopped: ${error.message}`)));
  worker.on('exit', () => fail(new Error('The journal writer has stopped.')));

  worker.on('message', (outcomes: Outcome[] | 'closed') => {
    if (outcomes === 'closed' || !committing) return;
    const group = committing;
    committing = null;
    stats.commits++;
    stats.writes += group.length;
    stats.committingMs += performance.now() - sentAt;
    group.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) pending.resolve(outcome.rows);
      else pending.reject(new Error(outcome?.error ?? 'Not written.'));
    });
    send();
    if (!committing) worker.unref();
  });

  /** The next group goes as soon as the worker is free. */
  const send = () => {
    if (scheduled) clearImmediate(scheduled);
    if (soon) clearTimeout(soon);
    scheduled = null;
    soon = null;
    if (committing || waiting.length === 0) return;
    committing = waiting;
    waiting = [];
    worker.ref();
    sentAt = performance.now();
    worker.postMessage(encode(committing));
  };

  // Each SQL text crosses to the worker once; after that, its number does.
  const sqlIds = new Map<string, number>();
  const encode = (group: Pending[]) => {
    const texts: Array<[number, string]> = [];
    const idOf = (sql: string) => {
      let id = sqlIds.get(sql);
      if (id === undefined) {
        id = sqlIds.size;
        sqlIds.set(sql, id);
        texts.push([id, sql]);
      }
      return id;
    };
    return {
      texts,
      group: group.map((pending) => pending.statements.map(({ sql, params }) => [idOf(sql), params])),
    };
  };

  const enqueue = (statements: WriteStatement[]) =>
    new Promise<Rows[]>((resolve, reject) => {
      if (failure) return reject(failure);
      waiting.push({ statements, resolve, reject });
    });

  const write = (statements: WriteStatement[]) => {
    const written = enqueue(statements);
    // setImmediate runs after this turn's I/O callbacks: requests read together are sent together.
    scheduled ??= setImmediate(send);
    return written;
  };
  // An empty write commits with, or after, everything asked for before it.
  const flush = async () => {
    await write([]);
  };

  return {
    stats,
    flush,
    write,
    writeSoon(statements) {
      const written = enqueue(statements);
      soon ??= setTimeout(send, SOON_MS);
      return written;
    },
    async close() {
      if (!failure) await flush().catch(() => {});
      if (failure) return;
      const closed = new Promise<void>((resolve) =>
        worker.on('message', (reply) => reply === 'closed' && resolve()),
      );
      worker.ref();
      worker.postMessage('close');
      await closed;
      failure = new Error('The journal writer is closed.');
      await worker.terminate();
    },
  };
}
