// A drainer of the team outbox: every desk and the hub run one. It takes due rows with a lease (lease.ts),
// sends each with its key (send.ts) and records the outcome while it still holds the lease (answers.ts). It
// wakes on `NOTIFY vetted_outbox` (sent by submit) and otherwise polls at a bounded interval. The connection
// it keeps for LISTEN (listener.ts) also holds its liveness lock (liveness.ts): a drainer that dies loses it
// with its session, and the next look of any other drainer takes its rows at once instead of waiting for
// their leases. It also writes customers another drainer recorded created but did not live to write
// (repair.ts): at its first look, every REPAIR_EVERY_MS, and as soon as it sees a drainer gone.
import type pg from 'pg';
import type { CustomerForm } from '#contract/drafts.ts';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { Customer, ServiceClient } from '#main/data/service/index.ts';
import type { Backoff } from '#main/features/drafts/outbox/backoff.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { HEARTBEAT } from '../store/silence.ts';
import { type Answers, record, recordKept } from './answers.ts';
import { takeDue } from './lease.ts';
import { listTeamOutbox, type TeamOutboxItem } from './list.ts';
import { type DrainListener, drainListener, letGo, listen, startHeartbeat } from './listener.ts';
import { liveDrainers } from './liveness.ts';
import { REPAIR_EVERY_MS, repairCreated } from './repair.ts';
import type { TeamOutboxRow } from './rows.ts';
import { type SendRowContext, sendRow } from './send.ts';
import { type Wakeup, wakeup } from './wakeup.ts';

export interface TeamDrainOptions {
  pool: pg.Pool;
  /**
   * Where the LISTEN connection comes from: a pool on the direct address when `pool` goes through a pooler in
   * transaction mode (it drops notifications); default `pool`.
   */
  notifications?: pg.Pool;
  /**
   * Where submits are heard instead of LISTENing on that session (`kick` on each, and on listening again);
   * returns what stops it. The session still holds the liveness lock: a session that LISTENs costs the store
   * work on every notification of the database, one that only holds a lock costs nothing.
   */
  hears?(kick: () => void): () => void;
  /** personalCipher(teamKey). */
  cipher: PersonalCipher;
  /** auditSealer(teamKey): an outcome is in the team's audit chain as it is recorded. */
  sealer: AuditSealer;
  client(): ServiceClient;
  /** Who holds a lease, e.g. `${reviewer}@${hostname}:${pid}`: unique per running drainer. */
  holder: string;
  /** How long a taken row stays this drainer's; past it, another drainer takes it over. Default 60 s. */
  leaseMs?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** The longest wait between two looks at the outbox when nothing is announced. Default 1 s. */
  pollMs?: number;
  /**
   * A row this drainer created (or found) the customer of, once recorded; also a row another drainer recorded
   * created but did not live to write (repair.ts). Must be idempotent; errors thrown here are logged.
   */
  onCreated?(customer: Customer, row: TeamOutboxRow, form: CustomerForm | undefined): void | Promise<void>;
  log: Logger;
  /** The desk's clock (the key's age, when to look for unrecorded customers); leases use the database's. */
  now?(): Date;
  backoff?: Backoff;
  random?(): number;
  /**
   * How often the session holding the liveness lock is asked `SELECT 1` (HEARTBEAT.everyMs by default), on a
   * timer of its own: a slow pass (a slow service) must not leave it quiet. Its answer is bounded by the
   * notifications pool's statement deadline: one gone silent is given up, and the next pass opens another.
   */
  heartbeatMs?: number;
}

export interface TeamDrain {
  /** Resolves once a look at the outbox that began after this call found nothing due and nothing in flight. */
  settled(): Promise<void>;
  /** Rows for the UI (names and e-mails decrypted). */
  list(): Promise<TeamOutboxItem[]>;
  /** Stops taking rows, waits for those in flight, and lets go of its connection. */
  close(): Promise<void>;
}

const DEFAULT_LEASE_MS = 60_000;

/** A running drainer: what it was given, and what it keeps between passes. */
interface Drain {
  readonly options: TeamDrainOptions;
  readonly leaseMs: number;
  readonly concurrency: number;
  readonly pollMs: number;
  readonly sendContext: SendRowContext;
  readonly answers: Answers;
  readonly listener: DrainListener;
  readonly wakeup: Wakeup;
  readonly inFlight: Set<Promise<void>>;
  /** `settled` calls waiting for a pass that began after them to find nothing to do. */
  readonly waiters: { after: number; resolve: () => void }[];
  closing: boolean;
  passes: number;
  /** The drainers alive at the last look: one missing now has stopped. */
  lastAlive: Set<string>;
  /** When the last look for customers created but not written was made; undefined: due now. */
  repairedAt: number | undefined;
  /** Whether the team store answered at the last look (said once when it changes, not at every poll). */
  reachable: boolean;
}

export function startTeamDrain(options: TeamDrainOptions): TeamDrain {
  const drain = newDrain(options);
  const stopHearing = options.hears?.(drain.wakeup.kick);
  const running = loop(drain);
  const stopHeartbeat = startHeartbeat(drain.listener, options.heartbeatMs ?? HEARTBEAT.everyMs);
  return {
    settled: () => settled(drain),
    list: () => listTeamOutbox(options.pool, options.cipher),
    async close() {
      drain.closing = true;
      stopHeartbeat();
      stopHearing?.();
      drain.wakeup.kick();
      await running;
      await finish(drain);
    },
  };
}

function newDrain(options: TeamDrainOptions): Drain {
  const { pool, holder, log } = options;
  const now = options.now ?? (() => new Date());
  const wake = wakeup();
  const drain: Drain = {
    options,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    concurrency: options.concurrency ?? 8,
    pollMs: options.pollMs ?? 1_000,
    sendContext: {
      cipher: options.cipher,
      client: options.client,
      log,
      now,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.random ? { random: options.random } : {}),
    },
    answers: {
      pool,
      holder,
      sealer: options.sealer,
      log,
      now,
      client: options.client,
      ...(options.onCreated ? { onCreated: options.onCreated } : {}),
      closing: () => drain.closing,
      unrecorded: new Map(),
    },
    listener: drainListener(
      options.notifications ?? pool,
      holder,
      log,
      options.hears ? undefined : wake.kick,
    ),
    wakeup: wake,
    inFlight: new Set(),
    waiters: [],
    closing: false,
    passes: 0,
    lastAlive: new Set(),
    repairedAt: undefined,
    reachable: true,
  };
  return drain;
}

/** Said once when the team store stops answering, once when it answers again: not at every poll. */
function reached(drain: Drain, ok: boolean, error?: unknown): void {
  if (ok === drain.reachable) return;
  drain.reachable = ok;
  if (ok) drain.options.log.info('team outbox: the team store answers again');
  else drain.options.log.warn('team outbox: the team store cannot be reached', describeError(error));
}

/**
 * Whether other drainers see this one alive (so they respect its leases), and a look for customers whose
 * recording drainer has stopped since the last pass. Without a liveness lock anyone could take the rows
 * this drainer would take now: it waits until its session holds the lock again.
 */
async function lookAtDrainers(drain: Drain): Promise<boolean> {
  let alive: Set<string>;
  try {
    alive = await liveDrainers(drain.options.pool);
  } catch (error) {
    reached(drain, false, error);
    return false;
  }
  if ([...drain.lastAlive].some((key) => !alive.has(key))) drain.repairedAt = undefined;
  drain.lastAlive = alive;
  const { liveness } = drain.listener;
  return liveness !== undefined && alive.has(liveness.key);
}

/** Due at the first look and every REPAIR_EVERY_MS after; awaited, so `settled` also covers it. */
async function repairIfDue(drain: Drain): Promise<void> {
  const { pool, cipher, client, log, onCreated } = drain.options;
  const now = drain.sendContext.now().getTime();
  if (!onCreated || (drain.repairedAt !== undefined && now - drain.repairedAt < REPAIR_EVERY_MS)) return;
  drain.repairedAt = now;
  await repairCreated({ pool, cipher, client, log, onCreated });
}

/** Sends a taken row and records its answer, in flight until then; a finished send kicks the loop. */
function startSend(drain: Drain, row: TeamOutboxRow): void {
  const job = sendRow(drain.sendContext, row)
    .then((sent) => record(drain.answers, row, sent))
    .catch((error) =>
      drain.options.log.warn('team outbox: a send was not recorded, or its customer not read back', {
        draftId: row.draft_id,
        ...describeError(error),
      }),
    )
    .finally(() => {
      drain.inFlight.delete(job);
      drain.wakeup.kick();
    });
  drain.inFlight.add(job);
}

/** Rows due, taken with a lease up to `free`; none while other drainers do not see this one alive. */
async function takeRows(drain: Drain, free: number, seenAlive: boolean): Promise<TeamOutboxRow[]> {
  if (!seenAlive) return [];
  try {
    const rows = await takeDue(drain.options.pool, drain.options.holder, drain.leaseMs, free);
    reached(drain, true);
    return rows;
  } catch (error) {
    reached(drain, false, error);
    return [];
  }
}

/** One look at the outbox; true when it took as many rows as it had free slots (more may be due at once). */
async function pass(drain: Drain): Promise<boolean> {
  const thisPass = ++drain.passes;
  // Without the notification connection, submits are found at the next poll.
  if (!drain.closing) await listen(drain.listener).catch((error) => reached(drain, false, error));
  const seenAlive = await lookAtDrainers(drain);
  await repairIfDue(drain);
  const keptRecorded = await recordKept(drain.answers);
  const free = drain.concurrency - drain.inFlight.size;
  // Every slot busy: a finished send kicks the loop.
  if (free <= 0) return false;
  const rows = await takeRows(drain, free, seenAlive);
  for (const row of rows) startSend(drain, row);
  if (rows.length === 0 && drain.inFlight.size === 0 && keptRecorded) settle(drain, thisPass);
  return rows.length === free;
}

/** Resolves the `settled` calls made before this pass began. */
function settle(drain: Drain, pass: number): void {
  for (const waiter of drain.waiters.filter((w) => w.after < pass)) {
    drain.waiters.splice(drain.waiters.indexOf(waiter), 1);
    waiter.resolve();
  }
}

async function loop(drain: Drain): Promise<void> {
  while (!drain.closing) {
    // A full take: more may be due at once; otherwise wait for a submit, a finished send, or the poll.
    if (!(await pass(drain)) && !drain.closing) await drain.wakeup.sleep(drain.pollMs);
  }
}

function settled(drain: Drain): Promise<void> {
  if (drain.closing) return Promise.resolve();
  return new Promise<void>((resolve) => {
    drain.waiters.push({ after: drain.passes, resolve });
    drain.wakeup.kick();
  });
}

/** Once the loop has stopped: waits for the sends in flight, answers every `settled`, ends the session. */
async function finish(drain: Drain): Promise<void> {
  while (drain.inFlight.size > 0) await Promise.all(drain.inFlight);
  for (const waiter of drain.waiters.splice(0)) waiter.resolve();
  letGo(drain.listener);
}
