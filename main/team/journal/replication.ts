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
import { type LiveFeed, liveFeed } from './live-feed.ts';
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

/** What the replication's steps share: its options, its watchers, what is applied, the catch-ups under way. */
interface ReplicationState {
  options: ReplicationOptions;
  watchers: Set<(change: ReplicaChange) => void>;
  closed: boolean;
  /** The highest change number known applied: notifications at or below it need no catch-up. */
  applied: number;
  /** Who waits for a change number to be applied (`upTo`), each told once it is. */
  awaited: Set<{ seq: number; reached(): void }>;
  running: Promise<number> | null;
  queued: Promise<number> | null;
  schedule: Scheduler;
  cancelRetry: (() => void) | null;
  retries: number;
  /** Set once both exist: the live feed and the listener each need the other's state. */
  feed: LiveFeed;
  listener: ChangeListener;
}

export function startReplication(options: ReplicationOptions): Replication {
  const state = {
    options,
    watchers: new Set<(change: ReplicaChange) => void>(),
    closed: false,
    applied: 0,
    awaited: new Set(),
    running: null,
    queued: null,
    schedule: options.schedule ?? realScheduler,
    cancelRetry: null,
    retries: 0,
  } as Omit<ReplicationState, 'feed' | 'listener'> as ReplicationState;
  if (options.onChanged) {
    const onChanged = options.onChanged;
    state.watchers.add(({ customerIds }) => onChanged(customerIds));
  }
  state.feed = followFeed(state);
  state.listener = listenToStore(state);
  return replicationOf(state);
}

function replicationOf(state: ReplicationState): Replication {
  return {
    catchUp: () => request(state),
    async upTo(seq) {
      if (state.applied >= seq) return;
      // Following the announcements, the change's own (it comes in commit order) or a marker's round trip
      // proves it, whichever is heard first; otherwise read the store.
      const reached = appliedUpTo(state, seq);
      const proved = await Promise.race([reached.heard, state.feed.sync()]);
      reached.forget();
      if (proved) return;
      await request(state);
    },
    watch(watcher) {
      state.watchers.add(watcher);
      return () => state.watchers.delete(watcher);
    },
    get listening() {
      return state.listener.listening;
    },
    get following() {
      return state.feed.live;
    },
    listen: (channel, handler) => state.listener.listen(channel, handler),
    async close() {
      state.closed = true;
      state.cancelRetry?.();
      state.feed.close();
      await state.listener.close();
      await Promise.allSettled([state.running, state.queued]);
    },
  };
}

function tell(state: ReplicationState, change: ReplicaChange): void {
  for (const watcher of state.watchers) {
    try {
      watcher(change);
    } catch (error) {
      state.options.log.error('team store: a replica watcher failed', describeError(error));
    }
  }
}

/** Changes are in the local replica (read from the store, or heard): remembered, and told to the watchers. */
function noteApplied(state: ReplicationState, result: AppliedChanges): void {
  state.applied = Math.max(state.applied, result.lastSeq);
  for (const waiter of state.awaited) {
    if (waiter.seq <= state.applied) waiter.reached();
  }
  if (result.customerIds.length > 0)
    tell(state, { customerIds: result.customerIds, lastSeq: result.lastSeq, claims: result.claims ?? [] });
}

/** Heard (true) once change `seq` is applied; `forget` stops waiting (the promise then stays unresolved). */
function appliedUpTo(state: ReplicationState, seq: number): { heard: Promise<boolean>; forget(): void } {
  let waiter!: { seq: number; reached(): void };
  const heard = new Promise<boolean>((resolve) => {
    waiter = {
      seq,
      reached() {
        state.awaited.delete(waiter);
        resolve(true);
      },
    };
  });
  state.awaited.add(waiter);
  return { heard, forget: () => state.awaited.delete(waiter) };
}

async function catchUpNow(state: ReplicationState): Promise<number> {
  const { pool, cipher, local, pageSize = PAGE_SIZE } = state.options;
  let lastSeq = await local.replica.lastSeq();
  while (!state.closed) {
    // One statement (replica-rows.ts): one snapshot, one round trip, no transaction to open or close.
    const page: ChangesPage = await readChangesPage(pool, cipher, lastSeq, pageSize);
    if (page.changes.through <= lastSeq) break;
    const result = await local.replica.applyChanges(page.changes);
    lastSeq = result.lastSeq;
    noteApplied(state, result);
    if (!page.more) break;
  }
  return lastSeq;
}

function start(state: ReplicationState): Promise<number> {
  if (state.closed) return Promise.reject(new ReplicationClosedError());
  const session = state.feed.session();
  // Caught up from a read that began while listening: what was announced meanwhile completes it.
  const run = catchUpNow(state).then(async (seq) =>
    state.queued ? seq : await state.feed.caughtUp(session, seq),
  );
  state.running = run;
  const done = () => {
    if (state.running === run) state.running = null;
  };
  run.then(done, done);
  return run;
}

/** A catch-up that starts no earlier than now: the one running is joined only by those asked for before it. */
function request(state: ReplicationState): Promise<number> {
  if (state.closed) return Promise.reject(new ReplicationClosedError());
  if (state.queued) return state.queued;
  if (!state.running) return start(state);
  const next = state.running
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      state.queued = null;
      return start(state);
    });
  state.queued = next;
  return next;
}

function catchUpInBackground(state: ReplicationState, why: string): void {
  request(state).catch((error: unknown) => {
    if (error instanceof ReplicationClosedError) return;
    // The next notification, reconnect or write tries again from the last change applied.
    state.options.log.warn(`team store: catching up after ${why} failed`, describeError(error));
  });
}

/**
 * Listening (again): what was missed must be read now, whatever comes next. A read that fails (the pool's
 * connections may have gone silent with the network) is tried again after a growing wait while the
 * connection listens; a quiet team would otherwise not be read until its next change.
 */
function catchUpAfterConnecting(state: ReplicationState): void {
  state.cancelRetry?.();
  state.cancelRetry = null;
  request(state).then(
    () => {
      state.retries = 0;
    },
    (error: unknown) => {
      if (error instanceof ReplicationClosedError || state.closed) return;
      state.options.log.warn('team store: catching up after connecting failed', describeError(error));
      // Not listening: the next connection catches up.
      if (!state.listener.listening) return;
      const random = state.options.random ?? Math.random;
      const delayMs = jitteredDelayMs(state.retries++, RECONNECT_BACKOFF, random, 0.5);
      state.cancelRetry = state.schedule(delayMs, () => {
        state.cancelRetry = null;
        if (state.listener.listening) catchUpAfterConnecting(state);
      });
    },
  );
}

function followFeed(state: ReplicationState): LiveFeed {
  const { cipher, local, log, pool } = state.options;
  return liveFeed({
    cipher,
    local,
    listening: () => state.listener.listening,
    catchingUp: () => state.running !== null || state.queued !== null,
    readStore: (why) => catchUpInBackground(state, why),
    applied: (result) => noteApplied(state, result),
    sendMarker: async (payload) => {
      await pool.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
    },
    log,
  });
}

function listenToStore(state: ReplicationState): ChangeListener {
  const { options } = state;
  return listenForChanges({
    connection: options.connection ?? options.pool.options,
    ...(options.listenerName ? { applicationName: options.listenerName } : {}),
    // A bare number announces a change whose rows follow it; only a desk not following them reads the store.
    onNotify: (seq) => {
      if (seq > state.applied && !state.feed.live) catchUpInBackground(state, 'a notification');
    },
    onAnnouncement: (payload) => state.feed.heard(payload),
    onListening: () => {
      options.session?.listening();
      state.feed.listening();
      catchUpAfterConnecting(state);
    },
    onLost: () => options.session?.lost(),
    log: options.log,
    ...(options.schedule ? { schedule: options.schedule } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.heartbeat ? { heartbeat: options.heartbeat } : {}),
  });
}
