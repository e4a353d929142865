// Live changes from the team store into the desk's local replica (main/data/journal/replica.ts). Every change to a
// replicated row carries a number drawn in commit order (team-db.ts `drawChange`), so "everything after the
// last number I applied" is all a desk ever needs to read: on start, after a lost connection, when asked.
// Catch-ups run one at a time; requests that arrive meanwhile share one more run after it, which starts
// after they were made and so sees every change committed before them (read-your-writes for `upTo`).
// Between catch-ups the desk follows the store's announcements (team store migration 11: each row rides its
// change's NOTIFY, in commit order) and applies them as they come, reading nothing: live-feed.ts says when
// that is safe (a catch-up that began after the connection started listening has ended, nothing missed
// since) and what to do when it is not (keep them for after the catch-up, or read the store).
import type pg from 'pg';
import type { ClaimChange } from '#main/data/journal/claims.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { AppliedChanges } from '#main/data/journal/replica.ts';
import type { SqliteJournal } from '#main/data/journal/sqlite.ts';
import { jitteredDelayMs } from '#main/ground/jitter.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import type { Heartbeat } from '../store/silence.ts';
import { CHANGES_CHANNEL } from '../store/sql.ts';
import {
  type ChangeListener,
  listenForChanges,
  RECONNECT_BACKOFF,
  realScheduler,
  type Scheduler,
} from './change-listener.ts';
import { liveFeed } from './live-feed.ts';
import { type ChangesPage, readChangesPage } from './replica-rows.ts';

/**
 * Changes read per round trip, and applied per local transaction. Applying runs on main's thread (node:sqlite
 * is synchronous: each customer costs its search-index and count triggers), so a page must stay short enough
 * not to hold main up for long; a first catch-up of 100,000 rows is still a few hundred round trips.
 */
export const PAGE_SIZE = 250;

export interface ReplicationOptions {
  pool: pg.Pool;
  /** For the dedicated LISTEN connection; the pool's own settings by default. */
  connection?: pg.ClientConfig;
  /** The LISTEN connection's application name (change-listener.ts's by default). */
  listenerName?: string;
  /** The team data key's cipher (`personalCipher(teamKey)`): opens what the team store holds sealed. */
  cipher: PersonalCipher;
  local: Pick<SqliteJournal, 'replica'>;
  /** After changes are applied locally: the customers whose rows changed (the desk pushes them to the screen). */
  onChanged?(customerIds: string[]): void;
  log: Logger;
  pageSize?: number;
  /** When a lost LISTEN connection is tried again (tests decide). */
  schedule?: Scheduler;
  random?: () => number;
  /** The LISTEN connection's heartbeat (store/silence.ts HEARTBEAT by default; tests shorten it). */
  heartbeat?: Heartbeat;
  /** Hears the LISTEN session lost (or not opened) and listening again: whether the store answers. */
  session?: { lost(): void; listening(): void };
}

export interface ReplicaChange {
  customerIds: string[];
  lastSeq: number;
  /** Claims that changed, each with who held the case before. */
  claims: ClaimChange[];
}

export interface Replication {
  /** Reads and applies every change after the local last change number; resolves with the new one. */
  catchUp(): Promise<number>;
  /** Resolves once every change up to `seq` (committed before this call) is in the local replica. */
  upTo(seq: number): Promise<void>;
  /** Calls `listener` after each batch of changes applied; returns what stops it. */
  watch(listener: (change: ReplicaChange) => void): () => void;
  /** True while the LISTEN connection is up (changes arrive live). */
  readonly listening: boolean;
  /** True while announced changes are applied as they come, without reading the store (live-feed.ts). */
  readonly following: boolean;
  /** Hears another channel on the replica's session (change-listener.ts `listen`). */
  listen: ChangeListener['listen'];
  close(): Promise<void>;
}

export class ReplicationClosedError extends Error {
  override name = 'ReplicationClosedError';
  constructor() {
    super('The desk stopped following the team store (it is closing).');
  }
}

export function startReplication(options: ReplicationOptions): Replication {
  const { pool, cipher, local, log, pageSize = PAGE_SIZE } = options;
  const watchers = new Set<(change: ReplicaChange) => void>();
  if (options.onChanged) {
    const onChanged = options.onChanged;
    watchers.add(({ customerIds }) => onChanged(customerIds));
  }
  let closed = false;
  /** The highest change number known applied: notifications at or below it need no catch-up. */
  let applied = 0;
  let running: Promise<number> | null = null;
  let queued: Promise<number> | null = null;

  // One statement (replica-rows.ts): one snapshot, one round trip, no transaction to open or close.
  const readPage = (after: number): Promise<ChangesPage> => readChangesPage(pool, cipher, after, pageSize);

  const tell = (change: ReplicaChange) => {
    for (const watcher of watchers) {
      try {
        watcher(change);
      } catch (error) {
        log.error('team store: a replica watcher failed', describeError(error));
      }
    }
  };

  /** Changes are in the local replica (read from the store, or heard): remembered, and told to the watchers. */
  const noteApplied = (result: AppliedChanges) => {
    applied = Math.max(applied, result.lastSeq);
    if (result.customerIds.length > 0)
      tell({ customerIds: result.customerIds, lastSeq: result.lastSeq, claims: result.claims ?? [] });
  };

  const catchUpNow = async (): Promise<number> => {
    let lastSeq = await local.replica.lastSeq();
    for (let more = true; more && !closed; ) {
      const page = await readPage(lastSeq);
      more = page.more;
      if (page.changes.through <= lastSeq) break;
      const result = await local.replica.applyChanges(page.changes);
      lastSeq = result.lastSeq;
      noteApplied(result);
    }
    return lastSeq;
  };

  const start = () => {
    if (closed) return Promise.reject(new ReplicationClosedError());
    const session = feed.session();
    // Caught up from a read that began while listening: what was announced meanwhile completes it.
    const run = catchUpNow().then(async (seq) => (queued ? seq : await feed.caughtUp(session, seq)));
    running = run;
    const done = () => {
      if (running === run) running = null;
    };
    run.then(done, done);
    return run;
  };

  /** A catch-up that starts no earlier than now: the one running is joined only by those asked for before it. */
  const request = (): Promise<number> => {
    if (closed) return Promise.reject(new ReplicationClosedError());
    if (queued) return queued;
    if (!running) return start();
    const next = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = null;
        return start();
      });
    queued = next;
    return next;
  };

  const catchUpInBackground = (why: string) => {
    request().catch((error: unknown) => {
      if (error instanceof ReplicationClosedError) return;
      // The next notification, reconnect or write tries again from the last change applied.
      log.warn(`team store: catching up after ${why} failed`, describeError(error));
    });
  };

  const schedule = options.schedule ?? realScheduler;
  let cancelRetry: (() => void) | null = null;
  let retries = 0;
  /**
   * Listening (again): what was missed must be read now, whatever comes next. A read that fails (the pool's
   * connections may have gone silent with the network) is tried again after a growing wait while the
   * connection listens; a quiet team would otherwise not be read until its next change.
   */
  const catchUpAfterConnecting = () => {
    cancelRetry?.();
    cancelRetry = null;
    request().then(
      () => {
        retries = 0;
      },
      (error: unknown) => {
        if (error instanceof ReplicationClosedError || closed) return;
        log.warn('team store: catching up after connecting failed', describeError(error));
        // Not listening: the next connection catches up.
        if (!listener.listening) return;
        const delayMs = jitteredDelayMs(retries++, RECONNECT_BACKOFF, options.random ?? Math.random, 0.5);
        cancelRetry = schedule(delayMs, () => {
          cancelRetry = null;
          if (listener.listening) catchUpAfterConnecting();
        });
      },
    );
  };

  const feed = liveFeed({
    cipher,
    local,
    listening: () => listener.listening,
    catchingUp: () => running !== null || queued !== null,
    readStore: (why) => catchUpInBackground(why),
    applied: noteApplied,
    sendMarker: async (payload) => {
      await pool.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
    },
    log,
  });

  const listener: ChangeListener = listenForChanges({
    connection: options.connection ?? pool.options,
    ...(options.listenerName ? { applicationName: options.listenerName } : {}),
    // A bare number announces a change whose rows follow it; only a desk not following them reads the store.
    onNotify: (seq) => {
      if (seq > applied && !feed.live) catchUpInBackground('a notification');
    },
    onAnnouncement: (payload) => feed.heard(payload),
    onListening: () => {
      options.session?.listening();
      feed.listening();
      catchUpAfterConnecting();
    },
    onLost: () => options.session?.lost(),
    log,
    ...(options.schedule ? { schedule: options.schedule } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.heartbeat ? { heartbeat: options.heartbeat } : {}),
  });

  return {
    catchUp: request,
    async upTo(seq) {
      if (applied >= seq) return;
      // Following the announcements, a marker's round trip proves it; otherwise read the store.
      if (await feed.sync()) return;
      await request();
    },
    watch(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    get listening() {
      return listener.listening;
    },
    get following() {
      return feed.live;
    },
    listen: (channel, handler) => listener.listen(channel, handler),
    async close() {
      closed = true;
      cancelRetry?.();
      feed.close();
      await listener.close();
      await Promise.allSettled([running, queued]);
    },
  };
}
