// The desk's ear on the team store: a dedicated connection LISTENing on CHANGES_CHANNEL (a pooled connection
// cannot: LISTEN belongs to one session, and the pool hands sessions around). A lost connection (database
// restarted, network gone, the session killed) is opened again after a bounded, jittered wait; each time it
// listens again the owner catches up, since notifications sent while it was away are gone for good.
// A connection cut without a word (a laptop's Wi-Fi gone, a NAT that forgot us) sends no error, and a LISTEN
// connection sends nothing of its own, so the listener asks it something every heartbeat.everyMs: no answer
// within heartbeat.answerMs and it is treated as lost (its socket destroyed), found within 22 s instead of
// TCP's many minutes (store/silence.ts); the server, told so at connect, ends the session once it goes quiet.
import type pg from 'pg';
import { jitteredDelayMs } from '#main/ground/jitter.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { dedicatedClient } from '../store/checkout.ts';
import { endWhenQuiet, HEARTBEAT, type Heartbeat, KEEPALIVE_DELAY_MS, quietBound } from '../store/silence.ts';
import { CHANGES_CHANNEL } from '../store/sql.ts';

export { HEARTBEAT } from '../store/silence.ts';

/** Runs `run` after `ms`; returns what cancels it. Tests inject their own, to decide when a reconnect happens. */
export type Scheduler = (ms: number, run: () => void) => () => void;

export const realScheduler: Scheduler = (ms, run) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** From a quarter of a second, doubling up to 15 s: a restarted database is found again soon, never hammered. */
export const RECONNECT_BACKOFF = { baseMs: 250, maxMs: 15_000 };

/** The listener's connections name themselves, so an administrator (and a test) can tell them in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'vetted-replica-listener';

export interface ChangeListenerOptions {
  /** How to reach the team store: the pool's own settings (host, TLS, user, password). */
  connection: pg.ClientConfig;
  /** Where to listen: the replica's changes by default (four eyes listens on its own channel). */
  channel?: string;
  /** How the connection names itself in pg_stat_activity; the replica's listener by default. */
  applicationName?: string;
  /** A notification arrived: the change `seq` (or a later one) committed. */
  onNotify(seq: number): void;
  /** A notification carrying more than a number (a row announced with its change, a desk's marker). */
  onAnnouncement?(payload: string): void;
  /** Listening now, for the first time or again: whatever happened meanwhile must be read. */
  onListening(): void;
  /** The connection was lost, or a new one could not be opened (each failed attempt says so again). */
  onLost?(): void;
  log: Logger;
  schedule?: Scheduler;
  random?: () => number;
  /** How often the connection is asked `SELECT 1`, and how long it has to answer (HEARTBEAT by default). */
  heartbeat?: Heartbeat;
}

/** Another channel heard on the same session (the team outbox's submits, four eyes' requests). */
export interface ChannelHandler {
  onMessage(payload: string): void;
  /** Listening on it now, for the first time or again: whatever was sent meanwhile is gone. */
  onListening(): void;
}

export interface ChangeListener {
  /** True while a connection is listening. */
  readonly listening: boolean;
  /**
   * Hears `channel` on this listener's session too; returns what stops it. Every session that LISTENs costs
   * the store work on every notification of the database, whatever its channels: a desk keeps one.
   */
  listen(channel: string, handler: ChannelHandler): () => void;
  /** Stops listening and stops reconnecting. */
  close(): Promise<void>;
}

type Settings = ChangeListenerOptions &
  Required<Pick<ChangeListenerOptions, 'channel' | 'applicationName' | 'schedule' | 'random' | 'heartbeat'>>;

/** A listener's state: its connection of the moment, and what it must do again on the next one. */
interface Ear {
  readonly settings: Settings;
  current: pg.Client | null;
  listening: boolean;
  closed: boolean;
  /** The other channels heard on the same session. */
  readonly others: Map<string, ChannelHandler>;
  attempt: number;
  cancelReconnect: (() => void) | null;
  /** The next heartbeat, or the wait for its answer: one at a time, for the current connection only. */
  cancelHeartbeat: (() => void) | null;
}

export function listenForChanges(options: ChangeListenerOptions): ChangeListener {
  const ear: Ear = {
    settings: {
      ...options,
      channel: options.channel ?? CHANGES_CHANNEL,
      applicationName: options.applicationName ?? LISTENER_APPLICATION_NAME,
      schedule: options.schedule ?? realScheduler,
      random: options.random ?? Math.random,
      heartbeat: options.heartbeat ?? HEARTBEAT,
    },
    current: null,
    listening: false,
    closed: false,
    others: new Map(),
    attempt: 0,
    cancelReconnect: null,
    cancelHeartbeat: null,
  };
  start(ear);
  return {
    get listening() {
      return ear.listening;
    },
    listen: (other, handler) => listenAlso(ear, other, handler),
    close: () => close(ear),
  };
}

function stopHeartbeat(ear: Ear): void {
  ear.cancelHeartbeat?.();
  ear.cancelHeartbeat = null;
}

function heartbeatLater(ear: Ear, client: pg.Client): void {
  const { schedule, heartbeat } = ear.settings;
  stopHeartbeat(ear);
  ear.cancelHeartbeat = schedule(heartbeat.everyMs, () => {
    ear.cancelHeartbeat = null;
    if (client !== ear.current) return;
    // An answer cancels this wait (heartbeatLater stops it); a lost connection has stopped it already.
    ear.cancelHeartbeat = schedule(heartbeat.answerMs, () => {
      ear.cancelHeartbeat = null;
      lost(ear, client, new Error(`no answer to a heartbeat within ${heartbeat.answerMs} ms`));
    });
    client.query('SELECT 1').then(
      () => {
        if (client === ear.current) heartbeatLater(ear, client);
      },
      // The connection's own 'error' or 'end' reports it too; lost() acts once per connection.
      (error: unknown) => lost(ear, client, error),
    );
  });
}

function reconnectLater(ear: Ear): void {
  if (ear.closed || ear.cancelReconnect) return;
  const { random, log, schedule } = ear.settings;
  const delayMs = jitteredDelayMs(ear.attempt++, RECONNECT_BACKOFF, random, 0.5);
  log.warn('team store: change listener reconnecting', { delayMs, attempt: ear.attempt });
  ear.cancelReconnect = schedule(delayMs, () => {
    ear.cancelReconnect = null;
    start(ear);
  });
}

function lost(ear: Ear, client: pg.Client, error?: unknown): void {
  if (client !== ear.current) return;
  ear.current = null;
  ear.listening = false;
  stopHeartbeat(ear);
  client.end().catch(() => undefined);
  if (ear.closed) return;
  ear.settings.log.warn('team store: change listener lost its connection', error ? describeError(error) : {});
  ear.settings.onLost?.();
  reconnectLater(ear);
}

/** A new connection, the listener's current one, its notifications told to their owners (not yet connected). */
function newClient(ear: Ear): pg.Client {
  const { connection, applicationName, channel, onNotify, onAnnouncement } = ear.settings;
  // TCP keepalive: a connection that silently died (a laptop's network gone, no reset ever coming) is found
  // out and opened again, instead of listening to nothing for ever.
  // Its error heard from before it connects (checkout.ts): a lost connection is opened again, never a crash.
  const client: pg.Client = dedicatedClient(
    {
      ...connection,
      application_name: applicationName,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    },
    (error) => lost(ear, client, error),
  );
  ear.current = client;
  client.on('end', () => lost(ear, client));
  client.on('notification', (message) => {
    if (message.channel !== channel) return ear.others.get(message.channel)?.onMessage(message.payload ?? '');
    const seq = Number(message.payload);
    if (Number.isSafeInteger(seq)) onNotify(seq);
    else if (message.payload) onAnnouncement?.(message.payload);
  });
  return client;
}

async function connect(ear: Ear): Promise<void> {
  if (ear.closed) return;
  const { channel, heartbeat } = ear.settings;
  const client = newClient(ear);
  try {
    await client.connect();
    // The heartbeat keeps a live session from ever being this quiet.
    await client.query(endWhenQuiet(quietBound(heartbeat)));
    await client.query(`LISTEN ${channel}`);
    for (const other of ear.others.keys()) await client.query(`LISTEN ${other}`);
  } catch (error) {
    lost(ear, client, error);
    return;
  }
  // Closed while connecting: this connection is no one's to keep.
  if (client !== ear.current || ear.closed) {
    await client.end().catch(() => undefined);
    return;
  }
  ear.attempt = 0;
  ear.listening = true;
  heartbeatLater(ear, client);
  ear.settings.onListening();
  for (const other of ear.others.values()) other.onListening();
}

/** connect() catches the connection's failures; an owner's callback that throws is logged, not left floating. */
function start(ear: Ear): void {
  connect(ear).catch((error: unknown) =>
    ear.settings.log.error('team store: change listener failed', describeError(error)),
  );
}

function listenAlso(ear: Ear, other: string, handler: ChannelHandler): () => void {
  ear.others.set(other, handler);
  const client = ear.current;
  if (client && ear.listening)
    client.query(`LISTEN ${other}`).then(
      () => {
        if (client === ear.current && ear.others.get(other) === handler) handler.onListening();
      },
      (error: unknown) => lost(ear, client, error),
    );
  return () => {
    if (ear.others.get(other) !== handler) return;
    ear.others.delete(other);
    if (ear.current && ear.listening) ear.current.query(`UNLISTEN ${other}`).catch(() => undefined);
  };
}

async function close(ear: Ear): Promise<void> {
  ear.closed = true;
  ear.cancelReconnect?.();
  ear.cancelReconnect = null;
  stopHeartbeat(ear);
  const client = ear.current;
  ear.current = null;
  ear.listening = false;
  await client?.end().catch(() => undefined);
}
