// Team mode at run time: what a desk (or the hub) opens when it has joined a team. The team journal (team
// store + this desk's local journal), the replica that keeps the local queue in step with the store (live by
// LISTEN/NOTIFY, and from the last change number after any gap), and the team outbox's drainer. Solo mode
// opens none of this.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { SubmitResult } from '#contract/drafts.ts';
import { DESK_LISTENER_NAME, HUB_LISTENER_NAME } from '#contract/team-overview.ts';
import type { AuditSealer } from '../data/journal/audit-chain.ts';
import { type Journal, openJournal, type SqliteJournal } from '../data/journal/index.ts';
import type { PersonalCipher } from '../data/journal/personal.ts';
import { type Clock, systemClock } from '../data/journal/time.ts';
import type { ServiceClient } from '../data/service/index.ts';
import type { StorePresenceSource } from '../features/team-interfaces/store-presence.ts';
import type { SubscriptionSecrets } from '../features/webhooks/subscription-secrets.ts';
import { describeError, type Logger } from '../ground/log/logger.ts';
import type { JoinedTeam } from './joined.ts';
import { openTeamJournal } from './journal/index.ts';
import { type Replication, startReplication } from './journal/replication.ts';
import { type TeamKeys, teamKeys } from './keys/key-ring.ts';
import { writeCreatedInto } from './outbox/created.ts';
import {
  type FlushResult,
  flushLocal,
  holdDraftsOnRetiredKey,
  listTeamOutbox,
  startTeamDrain,
  submitToTeam,
  type TeamDrain,
} from './outbox/index.ts';
import { OUTBOX_CHANNEL } from './outbox/rows.ts';
import { DRAINER_SESSION, poolSize } from './store/connection-budget.ts';
import {
  checkTeamStore,
  directConnection,
  openTeamPool,
  TeamConnectionError,
  teamClientConfig,
} from './store/pool.ts';
import { HEARTBEAT, type Heartbeat, QUERY_BOUND_MS, quietBound } from './store/silence.ts';
import { trackStorePresence } from './store/store-presence.ts';
import { teamSubscriptionSecrets } from './subscription-secrets.ts';

const FLUSH_EVERY_MS = 5_000;

export { type JoinedTeam, joinedTeam } from './joined.ts';

export interface TeamRuntimeOptions {
  team: JoinedTeam;
  role: 'desk' | 'hub';
  dataDir: string;
  /** The local journal's own data key (the vault's), never the team key. */
  dataKey: Buffer;
  log: Logger;
  clock?: Clock;
  client(): ServiceClient;
  /** Customers whose rows changed in the local replica (another desk's work, the hub's, or ours). */
  onCustomersChanged(ids: readonly string[]): void;
  /**
   * Whether this process sends the team outbox's drafts. A desk on its private built-in sandbox must not:
   * the customers would exist on no service the team shares. The hub always does.
   */
  drains: boolean;
  /** For tests: leases and polling of the team outbox's drainer. */
  drain?: { leaseMs?: number; pollMs?: number };
  /** For tests: how soon a silent connection is given up (store/silence.ts's bounds by default). */
  silence?: { heartbeat?: Heartbeat; queryTimeoutMs?: number; connectTimeoutMs?: number };
}

export interface TeamRuntime {
  readonly teamId: string;
  /** This process's login to the team store: the reviewer (or hub) it acts as. */
  readonly login: string;
  readonly journal: Journal;
  /** The pool on the team store (the runtime closes it). */
  readonly pool: pg.Pool;
  /** Seals and opens personal data with the team's data keys (wrapped by the team key). */
  readonly cipher: PersonalCipher;
  /** Seals audit entries this process appends to the team's chain (the team's wrapped audit key). */
  readonly sealer: AuditSealer;
  /** The time audit entries are appended at (the desk's, as its journal's). */
  readonly clock: Clock;
  /** Where the store is, for the words of a failure to reach it. */
  readonly target: JoinedTeam['connection'];
  /** This desk's own journal: its replica is what the queue reads. */
  readonly local: SqliteJournal;
  readonly replication: Replication;
  /** Since when the store has been away (its LISTEN session lost and not yet back), on this process's clock. */
  readonly presence: StorePresenceSource;
  /** How a dedicated LISTEN connection reaches the store (the direct address, never a pooler's). */
  readonly listenConnection: pg.ClientConfig;
  readonly drain: TeamDrain;
  /** The team's webhook subscription secrets (the hub that leads verifies deliveries with them). */
  readonly webhookSecrets: SubscriptionSecrets;
  /** Moves valid drafts into the team outbox (each under its Idempotency-Key), then off this desk. */
  submit(ids: readonly string[]): Promise<SubmitResult & FlushResult>;
  /** Drafts queued here while the store was unreachable go to the team outbox now. */
  flushLocal(): Promise<FlushResult>;
  close(): Promise<void>;
}

export async function openTeamRuntime(options: TeamRuntimeOptions): Promise<TeamRuntime> {
  const { team, log } = options;
  log.addSecret(team.password);
  const store = storeSessions(options);
  const { pool, keys } = store;
  const local = openJournal({
    file: path.join(options.dataDir, 'journal.db'),
    dataKey: options.dataKey,
    ...(options.clock ? { clock: options.clock } : {}),
    actor: team.connection.user,
  });
  const { cipher, sealer } = keys;
  const clock = options.clock ?? systemClock;
  const presence = trackStorePresence(() => clock().getTime());
  const replication = startDeskReplication(options, store, local, presence);
  const journal = await openJournalOrClose(options, store, local, replication);
  const drain = startDrain(options, store, replication, journal);
  void replication
    .catchUp()
    .catch((error: unknown) => log.warn('team catch-up failed', describeError(error)));
  const stopFlushing = flushWaitingDrafts({ local, pool, cipher, log });
  return {
    teamId: team.teamId,
    login: team.connection.user,
    journal,
    pool,
    cipher,
    sealer,
    clock,
    target: team.connection,
    local,
    replication,
    presence,
    listenConnection: store.listenConnection,
    drain: drain.drain,
    webhookSecrets: teamSubscriptionSecrets({ db: pool, fields: keys.fields, log }),
    submit: (ids) => submitToTeam({ local, pool, cipher, ids, today: clock(), log }),
    flushLocal: () => flushLocal({ local, pool, cipher, log }),
    async close() {
      stopFlushing();
      await drain.drain.close();
      await replication.close();
      await journal.close();
      await drain.notifications?.end();
      await pool.end();
    },
  };
}

/** How this process reaches the store: its pool, the LISTEN session's address, the team's keys, the bounds. */
interface StoreSessions {
  application: string;
  heartbeat: Heartbeat;
  bounds: { queryTimeoutMs: number; connectTimeoutMs?: number };
  keys: TeamKeys;
  keysWhenAnswered: ReturnType<typeof keysOnFirstAnswer>;
  pool: pg.Pool;
  listenConnection: pg.ClientConfig;
}

function storeSessions(options: TeamRuntimeOptions): StoreSessions {
  const { team, log } = options;
  const application = `vetted-${options.role}`;
  const heartbeat = options.silence?.heartbeat ?? HEARTBEAT;
  const queryTimeoutMs = options.silence?.queryTimeoutMs ?? QUERY_BOUND_MS;
  const connectTimeoutMs = options.silence?.connectTimeoutMs;
  const bounds = { queryTimeoutMs, ...(connectTimeoutMs ? { connectTimeoutMs } : {}) };
  const keys = teamKeys(team.teamKey);
  // A store unreachable at start: its wrapped keys are read on the first connection that reaches it, before
  // that connection serves anything (a note, a claim, the replica's catch-up), never on a timer.
  const keysWhenAnswered = keysOnFirstAnswer(keys, log);
  const pool = openTeamPool(team.connection, team.password, {
    // What is left of the budget (store/connection-budget.ts) besides the sessions of its own opened below.
    max: poolSize(options.role, options.drains),
    applicationName: application,
    ...bounds,
    onIdleError: (error) => log.warn('team store connection lost', describeError(error)),
    onNewConnection: keysWhenAnswered.onNewConnection,
  });
  // LISTEN belongs to one session: the direct address, never a pooler's shared sessions.
  const listenConnection = teamClientConfig(directConnection(team.connection), team.password, {
    applicationName: `${application}-listen`,
    ...bounds,
  });
  return { application, heartbeat, bounds, keys, keysWhenAnswered, pool, listenConnection };
}

function startDeskReplication(
  options: TeamRuntimeOptions,
  store: StoreSessions,
  local: SqliteJournal,
  presence: ReturnType<typeof trackStorePresence>,
): Replication {
  return startReplication({
    pool: store.pool,
    connection: store.listenConnection,
    // The one session a running desk always keeps open: how the lead's Team screen tells who is online.
    listenerName: options.role === 'desk' ? DESK_LISTENER_NAME : HUB_LISTENER_NAME,
    cipher: store.keys.cipher,
    local,
    log: options.log,
    onChanged: (ids) => options.onCustomersChanged(ids),
    heartbeat: store.heartbeat,
    session: { lost: () => presence.lost(), listening: () => presence.answered() },
  });
}

/** The team journal, once the store is checked (or found away); on a refusal everything opened is closed. */
async function openJournalOrClose(
  options: TeamRuntimeOptions,
  store: StoreSessions,
  local: SqliteJournal,
  replication: Replication,
): Promise<Journal> {
  const { team, log } = options;
  const { pool, keys } = store;
  try {
    if (!(await checkStoreAtStart(pool, team.teamKey, keys, log))) store.keysWhenAnswered.wait();
    return await openTeamJournal({
      storeChecked: true,
      pool,
      teamKey: team.teamKey,
      keys,
      local,
      ...(options.clock ? { clock: options.clock } : {}),
      // A desk's screen shows its own writes at once, from its replica: a write resolves once the replica
      // holds it. Nobody reads a hub's replica, so a hub's writes (every delivery's refresh) do not wait for
      // theirs: no marker through the store per refresh, heard by every desk's session.
      ...(options.role === 'desk' ? { onCommitted: (seq: number) => replication.upTo(seq) } : {}),
    });
  } catch (error) {
    await replication.close();
    // A team key a rotation retired: the drafts waiting here say why (the store itself is not at fault).
    await holdDraftsOnRetiredKey(pool, team.teamKey, local).catch((held: unknown) =>
      log.warn('waiting drafts not told the team key changed', describeError(held)),
    );
    await local.close();
    await pool.end();
    throw error;
  }
}

/** The team outbox's drainer where this process sends drafts; elsewhere only its list. */
function startDrain(
  options: TeamRuntimeOptions,
  store: StoreSessions,
  replication: Replication,
  journal: Journal,
): { drain: TeamDrain; notifications?: pg.Pool } {
  const { team, log } = options;
  const { pool, keys, heartbeat } = store;
  if (!options.drains) {
    return {
      drain: {
        settled: async () => undefined,
        list: () => listTeamOutbox(pool, keys.cipher),
        close: async () => undefined,
      },
    };
  }
  // The outbox's liveness lock needs a session of its own: one connection on the direct address. Its submits
  // are heard on the replica's session (one LISTENing session a desk: each costs the store on every NOTIFY).
  const notifications = openTeamPool(directConnection(team.connection), team.password, {
    max: DRAINER_SESSION,
    applicationName: `${store.application}-outbox`,
    // Its one session holds the drainer's liveness lock: asked every heartbeat, ended by the server if quiet.
    ...store.bounds,
    queryTimeoutMs: heartbeat.answerMs,
    endWhenQuietMs: quietBound(heartbeat),
    onIdleError: (error) => log.warn('team store connection lost', describeError(error)),
  });
  const drain = startTeamDrain({
    pool,
    notifications,
    hears: (kick) => replication.listen(OUTBOX_CHANNEL, { onMessage: kick, onListening: kick }),
    cipher: keys.cipher,
    sealer: keys.sealer,
    client: options.client,
    // Unique per run, not just per process: a hub restarted in a container is pid 1 again, and its
    // previous run's rows must not pass for its own (they are taken at once, that run being gone).
    holder: `${team.connection.user}@${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    log,
    heartbeatMs: heartbeat.everyMs,
    ...(options.drain ?? {}),
    onCreated: writeCreatedInto(journal),
  });
  return { drain, notifications };
}

/**
 * Drafts submitted while the store was unreachable wait on this desk: they move once it answers. A look every
 * few seconds costs one local count while none waits. Returns what stops the looking.
 */
function flushWaitingDrafts(parts: {
  local: SqliteJournal;
  pool: pg.Pool;
  cipher: PersonalCipher;
  log: Logger;
}): () => void {
  const flushWaiting = async () => {
    if ((await parts.local.drafts.countByState()).queued > 0) await flushLocal(parts);
  };
  const flushTimer = setInterval(() => {
    flushWaiting().catch((error: unknown) =>
      parts.log.warn('waiting drafts not moved', describeError(error)),
    );
  }, FLUSH_EVERY_MS);
  flushTimer.unref();
  return () => clearInterval(flushTimer);
}

/**
 * The keys of a store that did not answer at start, read on the pool's first new connection once `wait` was
 * called (so the start's own check keeps its words for a wrong key). Connections made together share one
 * read; a read that fails fails that connection, and the next new one tries again.
 */
function keysOnFirstAnswer(keys: TeamKeys, log: Logger) {
  let waiting = false;
  let reading: Promise<void> | undefined;
  return {
    wait() {
      waiting = true;
    },
    async onNewConnection(client: pg.PoolClient): Promise<void> {
      if (!waiting) return;
      reading ??= keys.reload(client).finally(() => {
        reading = undefined;
      });
      await reading;
      if (waiting) log.info('team store answers: its keys are read');
      waiting = false;
    },
  };
}

/**
 * A store at another schema, or whose key is not this team's, refuses the start (the desk must not write
 * into it). An unreachable one does not: drafts wait on the desk, the queue shows its replica, and the
 * replica and the outbox's drainer catch up once the store answers.
 */
async function checkStoreAtStart(
  pool: pg.Pool,
  teamKey: Buffer,
  keys: TeamKeys,
  log: Logger,
): Promise<boolean> {
  try {
    await checkTeamStore(pool, teamKey);
    await keys.reload(pool);
    return true;
  } catch (error) {
    // A store starting up or recovering (57P03: after a restart, a promotion) will answer in a moment, as one
    // that is away will: a desk or hub opened then works from its journal too instead of failing to start.
    const notNow =
      error instanceof TeamConnectionError && (error.kind === 'unreachable' || error.kind === 'server');
    if (!notNow) throw error;
    log.warn(
      'team store unreachable at start: working from this desk until it answers',
      describeError(error),
    );
    return false;
  }
}
