import { Worker } from 'node:worker_threads';
import { eventStatements, recordedEvents, type WriteStatement } from './events.ts';
import { createGroupCommit } from './group-commit.ts';
import type { EventInbox } from './interface.ts';
import { rejectionStatements } from './rejections.ts';
import { type Clock, systemClock } from './time.ts';

/**
 * The listener's writes to the journal, committed (fsync: synchronous=FULL) on a connection of their
 * own in a worker thread, so that main keeps reading, verifying and answering while a commit is on
 * disk. Writes asked for while a commit is under way form the next group: under load, one fsync
 * serves many deliveries. A write is a list of statements run in one savepoint; it resolves with
 * each statement's `RETURNING` rows once committed, and one that fails fails alone.
 */
export type Rows = Record<string, unknown>[];

/** The SQLite journal's inbox: its domain writes, and the statement-level writes they are made of. */
export interface DurableWriter extends EventInbox {
  /** Committed as soon as possible: the caller is waiting to say it is durable. */
  write(statements: WriteStatement[]): Promise<Rows[]>;
  /**
   * For a write whose loss in a crash only means some work is done again (an event marked
   * processed): it joins the next group, or is committed after a short while if none comes.
   */
  writeSoon(statements: WriteStatement[]): Promise<Rows[]>;
}

type WorkerOutcome = { ok: true; rows: Rows[] } | { ok: false; error: string };

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

/** A worker that keeps dying is given up on after this many restarts within RESTART_WINDOW_MS. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

export interface DurableWriterHooks {
  /** For tests: each worker as it starts, so that one can be killed mid-group. */
  onWorker?(worker: Worker): void;
}

export function startDurableWriter(
  file: string,
  clock: Clock = systemClock,
  hooks: DurableWriterHooks = {},
): DurableWriter {
  const events = eventStatements(clock);
  const rejection = rejectionStatements(clock);
  let inFlight: { resolve(outcomes: WorkerOutcome[]): void; reject(error: Error): void } | null = null;
  let failure: Error | null = null;
  let closing = false;
  let committing = false;
  const restarts: number[] = [];

  const fail = (error: Error) => {
    failure ??= error;
    inFlight?.reject(failure);
    inFlight = null;
    group.refuse(failure);
  };

  /**
   * A worker that dies (a crash in the engine, out of memory) is replaced. The group it was committing
   * fails: whether it reached the disk is unknown, and none of it was acknowledged (the listener answers
   * only once a write resolves), so the service sends those deliveries again; what waits goes to the new
   * worker. Only a worker that keeps dying stops the writer.
   */
  const spawn = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } });
    // Only a commit under way keeps the process alive.
    if (!committing) started.unref();
    sqlIds.clear(); // a new worker knows no SQL text yet
    let died = false;
    const replace = (reason: string) => {
      if (died || closing || failure) return;
      died = true;
      const now = Date.now();
      restarts.push(now);
      while (restarts.length > 0 && now - restarts[0]! > RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        fail(new Error(`The journal writer stopped ${restarts.length} times in a minute (${reason}).`));
        return;
      }
      inFlight?.reject(
        new Error(`The journal writer stopped during a commit (${reason}); it has been restarted.`),
      );
      inFlight = null;
      worker = spawn();
    };
    started.on('error', (error) => replace(error.message));
    started.on('exit', (code) => replace(`exit code ${code}`));
    started.on('message', (outcomes: WorkerOutcome[] | 'closed') => {
      if (outcomes === 'closed' || !inFlight || started !== worker) return;
      const answered = inFlight;
      inFlight = null;
      answered.resolve(outcomes);
    });
    hooks.onWorker?.(started);
    return started;
  };

  const group = createGroupCommit<WriteStatement[], Rows[]>({
    soonMs: SOON_MS,
    onCommitting: (now) => {
      committing = now;
      if (now) worker.ref();
      else worker.unref();
    },
    commit: (writes) =>
      new Promise<WorkerOutcome[]>((resolve, reject) => {
        inFlight = { resolve, reject };
        worker.postMessage(encode(writes));
      }).then((outcomes) =>
        outcomes.map((outcome) =>
          outcome.ok ? { ok: true, value: outcome.rows } : { ok: false, error: new Error(outcome.error) },
        ),
      ),
  });

  // Each SQL text crosses to the worker once; after that, its number does.
  const sqlIds = new Map<string, number>();
  let worker = spawn();
  const encode = (writes: WriteStatement[][]) => {
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
      group: writes.map((statements) => statements.map(({ sql, params }) => [idOf(sql), params])),
    };
  };

  const write = (statements: WriteStatement[]) => group.write(statements, 'now');
  const writeSoon = (statements: WriteStatement[]) => group.write(statements, 'soon');

  return {
    stats: group.stats,
    flush: () => group.flush(),
    write,
    writeSoon,
    async record(received, { delivered }) {
      // Fetched events the journal already has are left alone: a duplicate counts deliveries only.
      const statements = received.map(({ processed, ...event }) =>
        events.record(event, { processed, onlyIfAbsent: !delivered }),
      );
      const rows = await write(statements);
      return recordedEvents(rows);
    },
    async markProcessed(ids) {
      await writeSoon([events.markProcessed(ids)]);
    },
    async recordRejection(entry) {
      await writeSoon(rejection(entry));
    },
    async close() {
      if (!failure) await group.flush().catch(() => {});
      if (failure) return;
      closing = true;
      const closed = new Promise<void>((resolve) =>
        worker.on('message', (reply) => reply === 'closed' && resolve()),
      );
      worker.ref();
      worker.postMessage('close');
      await closed;
      fail(new Error('The journal writer is closed.'));
      await worker.terminate();
    },
  };
}
