// A drainer of the team outbox: every desk and the hub run one. It takes due rows with a lease (lease.ts),
// sends each with its key (send.ts) and records the outcome while it still holds the lease. It wakes on
// `NOTIFY vetted_outbox` (sent by submit) and otherwise polls at a bounded interval. The connection it keeps
// for LISTEN also holds its liveness lock (liveness.ts): a drainer that dies loses it with its session, and
// the next look of any other drainer takes its rows at once instead of waiting for their leases. It also
// writes customers another drainer recorded created but did not live to write (repair.ts): at its first
// look, every REPAIR_EVERY_MS, and as soon as it sees a drainer gone.
import type pg from 'pg';
import type { CustomerForm } from '#contract/drafts.ts';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { Customer, ServiceClient } from '#main/data/service/index.ts';
import type { Backoff } from '#main/features/drafts/outbox/backoff.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { type Checkout, checkout } from '../store/checkout.ts';
import { HEARTBEAT } from '../store/silence.ts';
import { type Outcome, recordOutcome, takeDue } from './lease.ts';
import { listTeamOutbox, type TeamOutboxItem } from './list.ts';
import { holdLiveness, liveDrainers } from './liveness.ts';
import { REPAIR_EVERY_MS, repairCreated } from './repair.ts';
import { OUTBOX_CHANNEL, type TeamOutboxRow } from './rows.ts';
import { type Sent, sendRow } from './send.ts';

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

export function startTeamDrain(options: TeamDrainOptions): TeamDrain {
  const { pool, holder, log } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = options.concurrency ?? 8;
  const pollMs = options.pollMs ?? 1_000;
  const sendContext = {
    cipher: options.cipher,
    client: options.client,
    log,
    now: options.now ?? (() => new Date()),
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.random ? { random: options.random } : {}),
  };

  const inFlight = new Set<Promise<void>>();
  /** Answers the service gave whose recording failed, by idempotency key: recorded again at each pass. */
  const unrecorded = new Map<string, { row: TeamOutboxRow; sent: Sent }>();
  let closing = false;
  let passes = 0;
  const waiters: { after: number; resolve: () => void }[] = [];
  let wake: (() => void) | undefined;
  /** A kick that came while no sleep was waiting: the next sleep is skipped, so none is lost. */
  let kicked = false;
  let listener: Checkout | undefined;
  /** This drainer's liveness lock key, once known, and whether its listening session holds it. */
  let liveness: { key: string; held: boolean } | undefined;
  /** The drainers alive at the last look: one missing now has stopped. */
  let lastAlive = new Set<string>();
  /** When the last look for customers created but not written was made; undefined: due now. */
  let repairedAt: number | undefined;

  /** Said once when the team store stops answering, once when it answers again: not at every poll. */
  let reachable = true;
  const reached = (ok: boolean, error?: unknown) => {
    if (ok === reachable) return;
    reachable = ok;
    if (ok) log.info('team outbox: the team store answers again');
    else log.warn('team outbox: the team store cannot be reached', describeError(error));
  };

  const kick = () => {
    if (wake) wake();
    else kicked = true;
  };
  const stopHearing = options.hears?.(kick);

  /** The connection that hears submits and holds this drainer's liveness lock, for as long as it lives. */
  async function listen(): Promise<void> {
    if (closing) return;
    if (listener) {
      // The lock may still have been held by this drainer's previous session when it asked.
      if (!liveness?.held) liveness = await holdLiveness(listener.client, holder);
      return;
    }
    const out = await checkout(options.notifications ?? pool, (error) => {
      log.warn('team outbox: lost the notification connection', describeError(error));
      if (listener === out) {
        listener = undefined;
        liveness = undefined;
      }
      out.release(error);
    });
    const { client } = out;
    if (!options.hears) client.on('notification', kick);
    try {
      if (!options.hears) await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      liveness = await holdLiveness(client, holder);
    } catch (error) {
      out.release(error as Error);
      throw error;
    }
    listener = out;
  }

  /**
   * A session that holds a lock says nothing of its own: asked now and then, one that went silent is found,
   * given up (the server ends it too: the notifications pool asks it to at connect) and opened again.
   */
  async function stillThere(out: Checkout): Promise<void> {
    try {
      await out.client.query('SELECT 1');
    } catch (error) {
      // Its loss may have let it go already.
      if (listener !== out) return;
      log.warn('team outbox: the notification connection does not answer', describeError(error));
      listener = undefined;
      liveness = undefined;
      out.release(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Whether other drainers see this one alive (so they respect its leases), and a look for customers whose
   * recording drainer has stopped since the last pass. Without a liveness lock anyone could take the rows
   * this drainer would take now: it waits until its session holds the lock again.
   */
  async function lookAtDrainers(): Promise<boolean> {
    let alive: Set<string>;
    try {
      alive = await liveDrainers(pool);
    } catch (error) {
      reached(false, error);
      return false;
    }
    if ([...lastAlive].some((key) => !alive.has(key))) repairedAt = undefined;
    lastAlive = alive;
    return liveness !== undefined && alive.has(liveness.key);
  }

  async function send(row: TeamOutboxRow): Promise<void> {
    await record(row, await sendRow(sendContext, row));
  }

  /**
   * Records the service's answer while this drainer holds the row. One that cannot be recorded now (the
   * store went away between the request and its answer) is kept and recorded at the next passes: this
   * drainer is alive, so no other takes the row before its lease runs out, and the draft would otherwise
   * wait out the whole lease to be sent again for an answer already known.
   */
  async function record(row: TeamOutboxRow, sent: Sent): Promise<void> {
    const key = row.idempotency_key;
    const outcome: Outcome = closing && sent.outcome.kind === 'retry' ? { kind: 'released' } : sent.outcome;
    let written: TeamOutboxRow | undefined;
    try {
      written = await recordOutcome(pool, key, holder, outcome, {
        sealer: options.sealer,
        now: sendContext.now,
      });
    } catch (error) {
      if (!closing) unrecorded.set(key, { row, sent });
      throw error;
    }
    unrecorded.delete(key);
    if (!written) {
      log.info('team outbox: lease lost before the answer was recorded', { draftId: row.draft_id });
      return;
    }
    if (written.state !== 'created' || !written.customer_id || !options.onCreated) return;
    // Read back as any client would after a create; one that cannot be read now reaches the desks later.
    const customer = sent.customer ?? (await options.client().customers.get(written.customer_id));
    await options.onCreated(customer, written, sent.form);
  }

  /** The answers kept since their recording failed, recorded again; false while the store still refuses. */
  async function recordKept(): Promise<boolean> {
    for (const { row, sent } of [...unrecorded.values()]) {
      try {
        await record(row, sent);
      } catch (error) {
        // Still away: the rest waits for the next pass. Recorded but not read back: logged, as a send's is.
        if (unrecorded.has(row.idempotency_key)) return false;
        log.warn('team outbox: a kept answer was recorded, its customer not read back', describeError(error));
      }
    }
    return true;
  }

  function start(row: TeamOutboxRow): void {
    const job = send(row)
      .catch((error) =>
        log.warn('team outbox: a send was not recorded, or its customer not read back', {
          draftId: row.draft_id,
          ...describeError(error),
        }),
      )
      .finally(() => {
        inFlight.delete(job);
        kick();
      });
    inFlight.add(job);
  }

  function sleep(ms: number): Promise<void> {
    if (kicked) {
      kicked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  /** Due at the first look and every REPAIR_EVERY_MS after; awaited, so `settled` also covers it. */
  async function repairIfDue(): Promise<void> {
    const onCreated = options.onCreated;
    const now = sendContext.now().getTime();
    if (!onCreated || (repairedAt !== undefined && now - repairedAt < REPAIR_EVERY_MS)) return;
    repairedAt = now;
    await repairCreated({ pool, cipher: options.cipher, client: options.client, log, onCreated });
  }

  async function pass(): Promise<boolean> {
    const pass = ++passes;
    // Without the notification connection, submits are found at the next poll.
    await listen().catch((error) => reached(false, error));
    const seenAlive = await lookAtDrainers();
    await repairIfDue();
    const keptRecorded = await recordKept();
    const free = concurrency - inFlight.size;
    // Every slot busy: a finished send kicks the loop.
    if (free <= 0) return false;
    let rows: TeamOutboxRow[] = [];
    try {
      if (seenAlive) {
        rows = await takeDue(pool, holder, leaseMs, free);
        reached(true);
      }
    } catch (error) {
      reached(false, error);
    }
    for (const row of rows) start(row);
    if (rows.length === 0 && inFlight.size === 0 && keptRecorded) {
      for (const waiter of waiters.filter((w) => w.after < pass)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    return rows.length === free;
  }

  async function loop(): Promise<void> {
    while (!closing) {
      // A full take: more may be due at once; otherwise wait for a submit, a finished send, or the poll.
      if (!(await pass()) && !closing) await sleep(pollMs);
    }
  }

  const running = loop();
  let beating = false;
  const heartbeat = setInterval(() => {
    if (!listener || beating) return;
    beating = true;
    void stillThere(listener).finally(() => {
      beating = false;
    });
  }, options.heartbeatMs ?? HEARTBEAT.everyMs);
  heartbeat.unref();

  return {
    settled() {
      if (closing) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push({ after: passes, resolve });
        kick();
      });
    },
    list: () => listTeamOutbox(pool, options.cipher),
    async close() {
      closing = true;
      clearInterval(heartbeat);
      stopHearing?.();
      kick();
      await running;
      while (inFlight.size > 0) await Promise.all(inFlight);
      for (const waiter of waiters.splice(0)) waiter.resolve();
      const out = listener;
      listener = undefined;
      // Ended, not given back to the pool: the liveness lock goes with the session.
      out?.release(new Error('the team outbox drainer stopped'));
    },
  };
}
