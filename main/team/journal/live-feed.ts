// Following the team store's announcements (team store migration 11) without reading the store. PostgreSQL
// sends every committed change's rows, in commit order, to every session listening; so a desk whose replica
// holds every change up to a moment after its connection began listening, and that has applied every
// announcement since, holds every change there is: it is *live*, and applies each announcement as it comes
// (a burst's in one local transaction). It stops being live, and reads the store instead, when that chain
// breaks: the connection listens again (what was sent meanwhile is gone), a row was too large to announce
// or could not be read or applied, or too much was heard while a catch-up ran. Announcements heard while a
// catch-up runs are kept and applied after it: the catch-up's read may have begun before they committed.
// Every apply is idempotent (a row replaces only an older copy of itself), so hearing a row the catch-up
// also read costs nothing but the check. Reading one's own writes costs one tiny statement, not a read of the
// store: `sync` sends a marker of its own through the store, which arrives after everything committed before
// it; once it is heard and what came before it is applied, the replica holds every change committed earlier.
import { randomUUID } from 'node:crypto';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { AppliedChanges, ReplicaChanges } from '#main/data/journal/replica.ts';
import type { SqliteJournal } from '#main/data/journal/sqlite.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { readAnnouncement } from './announcements.ts';

/** What a marker's payload begins with (other desks' markers are heard too, and ignored). */
export const MARKER = 'marker:';

/** Announcements kept while a catch-up runs; beyond it the desk reads the store again instead. */
export const KEEP_MAX = 10_000;

export interface LiveFeedOptions {
  cipher: PersonalCipher;
  local: Pick<SqliteJournal, 'replica'>;
  /** True while the LISTEN connection is up. */
  listening(): boolean;
  /** True while a catch-up runs or waits to run. */
  catchingUp(): boolean;
  /** Asks for a catch-up (one starting after this call: replication.ts `request`). */
  readStore(why: string): void;
  /** After announced rows were applied. */
  applied(result: AppliedChanges): void;
  /** Sends `payload` on the changes channel through the store (sync's marker). */
  sendMarker(payload: string): Promise<void>;
  log: Logger;
}

export interface LiveFeed {
  /** True while announcements are applied as they come (the store need not be read for changes). */
  readonly live: boolean;
  /** The listening session a catch-up starts in (-1 when not listening), for `caughtUp`. */
  session(): number;
  /** The connection listens (again): nothing heard counts until a catch-up begun from now has ended. */
  listening(): void;
  /** A payload the changes channel carried that is not a bare change number (an announcement, a marker). */
  heard(payload: string): void;
  /**
   * Resolves true once every change committed before the call is in the replica, heard from the store's
   * announcements; false when the desk is not (or stops) following them: then only a catch-up can tell.
   */
  sync(): Promise<boolean>;
  /**
   * A catch-up begun in `session` read everything up to `seq`: applies what was heard meanwhile and goes live
   * if the connection listened throughout. Resolves with the replica's last change number.
   */
  caughtUp(session: number, seq: number): Promise<number>;
  close(): void;
}

/** A feed's state: whether it follows the announcements, and what it heard and has not applied yet. */
interface Feed {
  readonly options: LiveFeedOptions;
  live: boolean;
  closed: boolean;
  sessionNo: number;
  /** Heard while not live: applied once a catch-up ends. */
  kept: ReplicaChanges[];
  /** Heard while live: applied together at the end of this turn of the event loop. */
  pending: ReplicaChanges[];
  flushing: NodeJS.Immediate | null;
  /** The applies of what was heard live, one after another: a marker waits for those before it. */
  applying: Promise<unknown>;
  /** This desk's markers in flight, by token: each told whether the replica holds what preceded it. */
  readonly markers: Map<string, (following: boolean) => void>;
}

export function liveFeed(options: LiveFeedOptions): LiveFeed {
  const feed: Feed = {
    options,
    live: false,
    closed: false,
    sessionNo: 0,
    kept: [],
    pending: [],
    flushing: null,
    applying: Promise.resolve(),
    markers: new Map(),
  };
  return {
    get live() {
      return feed.live && options.listening();
    },
    session: () => (options.listening() ? feed.sessionNo : -1),
    listening: () => newSession(feed),
    heard: (payload) => heard(feed, payload),
    caughtUp: (session, seq) => caughtUp(feed, session, seq),
    sync: () => sync(feed),
    close() {
      feed.closed = true;
      feed.live = false;
      forgetMarkers(feed);
      if (feed.flushing) clearImmediate(feed.flushing);
      feed.flushing = null;
    },
  };
}

function forgetMarkers(feed: Feed): void {
  for (const tell of feed.markers.values()) tell(false);
  feed.markers.clear();
}

/** Nothing heard before counts: the feed is live again only once a catch-up begun from now has ended. */
function newSession(feed: Feed): void {
  feed.sessionNo++;
  feed.live = false;
  feed.kept = [];
  forgetMarkers(feed);
}

// A break in the chain is a session of its own: a catch-up begun before it cannot make the desk live.
function notFollowing(feed: Feed, why: string): void {
  newSession(feed);
  feed.options.readStore(why);
}

async function apply(feed: Feed, batch: ReplicaChanges[]): Promise<number> {
  const changes = merged(batch);
  const result = await feed.options.local.replica.applyChanges(changes);
  feed.options.applied(result);
  return result.lastSeq;
}

function flush(feed: Feed): void {
  if (feed.flushing) clearImmediate(feed.flushing);
  feed.flushing = null;
  const batch = feed.pending;
  feed.pending = [];
  if (batch.length === 0 || feed.closed) return;
  feed.applying = feed.applying.then(() =>
    apply(feed, batch).catch((error: unknown) => {
      feed.options.log.warn('team store: an announced change could not be applied', describeError(error));
      notFollowing(feed, 'an announced change that could not be applied');
    }),
  );
}

/** Our own marker came back: whatever was heard before it is applied first. */
function markerHeard(feed: Feed, token: string): void {
  const tell = feed.markers.get(token);
  if (!tell) return;
  feed.markers.delete(token);
  flush(feed);
  feed.applying
    .then(() => tell(feed.live && feed.options.listening()))
    .catch((error: unknown) =>
      feed.options.log.warn('team store: a marker could not be told', describeError(error)),
    );
}

function heard(feed: Feed, payload: string): void {
  if (feed.closed) return;
  if (payload.startsWith(MARKER)) markerHeard(feed, payload.slice(MARKER.length));
  else announcementHeard(feed, payload);
}

/** Announced rows: applied as they come while live, kept for the end of a catch-up otherwise. */
function announcementHeard(feed: Feed, payload: string): void {
  const { options } = feed;
  let announced: ReturnType<typeof readAnnouncement>;
  try {
    announced = readAnnouncement(options.cipher, payload);
  } catch (error) {
    options.log.warn('team store: an announcement could not be read', describeError(error));
    notFollowing(feed, 'an announcement it could not read');
    return;
  }
  if (!('changes' in announced)) {
    notFollowing(feed, 'a change too large to announce');
    return;
  }
  // Live, a catch-up running meanwhile (a desk's own write, read back) changes nothing: apply as it comes.
  if (feed.live && options.listening()) {
    feed.pending.push(announced.changes);
    feed.flushing ??= setImmediate(() => flush(feed));
    return;
  }
  if (feed.kept.length >= KEEP_MAX) {
    notFollowing(feed, 'more announcements than it keeps while catching up');
    return;
  }
  feed.kept.push(announced.changes);
  if (!options.catchingUp()) options.readStore('an announcement while not following');
}

async function caughtUp(feed: Feed, session: number, seq: number): Promise<number> {
  if (feed.closed || session < 0 || session !== feed.sessionNo || !feed.options.listening()) return seq;
  let last = seq;
  try {
    // Heard while this loop applies are kept too (a catch-up still runs): apply until none is left.
    while (feed.kept.length > 0) {
      const batch = feed.kept;
      feed.kept = [];
      last = Math.max(last, await apply(feed, batch));
    }
  } catch (error) {
    feed.options.log.warn(
      'team store: a change heard while catching up could not be applied',
      describeError(error),
    );
    notFollowing(feed, 'a change heard while catching up that could not be applied');
    return last;
  }
  feed.live = session === feed.sessionNo && feed.options.listening();
  return last;
}

async function sync(feed: Feed): Promise<boolean> {
  if (!feed.live || !feed.options.listening()) return false;
  const token = randomUUID();
  const heard = new Promise<boolean>((resolve) => feed.markers.set(token, resolve));
  try {
    await feed.options.sendMarker(`${MARKER}${token}`);
  } catch (error) {
    feed.markers.delete(token);
    feed.options.log.warn('team store: a marker could not be sent', describeError(error));
    return false;
  }
  return heard;
}

/** Announced rows as one set of changes (one local transaction); their end is the highest number in them. */
function merged(batch: readonly ReplicaChanges[]): ReplicaChanges {
  return {
    customers: batch.flatMap((c) => c.customers ?? []),
    statusHistory: batch.flatMap((c) => c.statusHistory ?? []),
    notes: batch.flatMap((c) => c.notes ?? []),
    retries: batch.flatMap((c) => c.retries ?? []),
    claims: batch.flatMap((c) => c.claims ?? []),
  };
}
