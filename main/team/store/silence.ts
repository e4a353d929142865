// How long a connection to the team store may stay silent before a desk or hub gives it up. A network that
// drops without a word (a laptop's Wi-Fi gone, a router asleep, a NAT that forgot the connection) sends no
// error: TCP notices after many minutes, or never while the peer's kernel still answers. So every statement
// has a deadline, every session kept open is asked something on a heartbeat, and the server is told to end a
// session of ours that goes quiet (its locks, its LISTEN) as soon as a live one could not have.

/** How often a long-lived session is asked `SELECT 1`, and how long it has to answer. */
export interface Heartbeat {
  everyMs: number;
  answerMs: number;
}

/** A session that stops answering is given up within 22 s (everyMs + answerMs) of its last answer. */
export const HEARTBEAT: Heartbeat = { everyMs: 12_000, answerMs: 10_000 };

/**
 * The longest one statement on the pool may take before its connection is taken for dead: the statement
 * fails in words ("did not answer in time") and the connection is dropped, never handed out again. The
 * desk's statements take milliseconds; this is far above any of them, and within the 30 s the issue asked.
 */
export const QUERY_BOUND_MS = 20_000;

/** TCP keepalive's first probe on an idle connection (a dead peer that does answer with a reset). */
export const KEEPALIVE_DELAY_MS = 10_000;

/** Within how long a session that answers every `heartbeat` has had a statement, with room for one answer. */
export const quietBound = (heartbeat: Heartbeat): number => heartbeat.everyMs + heartbeat.answerMs;

/**
 * The statement asking the server to end this session once it has been idle for `idleMs`: a desk or hub
 * whose network went silent loses its session, and the locks it held (the listener role, an outbox drainer's
 * liveness), on the server's side too, instead of keeping them for as long as the server's TCP takes to
 * notice. Run once on a session of our own, right after connecting (a SET, not a startup option: PgBouncer in
 * session mode refuses unknown startup options). PostgreSQL 14 and later.
 */
export const endWhenQuiet = (idleMs: number): string => `SET idle_session_timeout = ${Math.ceil(idleMs)}`;

/**
 * How long the server keeps a session of ours idle in the middle of a transaction. Vetted's transactions run
 * their statements back to back (a lease is committed before any send to the service), so a transaction that
 * idles longer belongs to a desk or hub cut off mid-write: its session holds the change lock every team writer
 * takes first, and without this the server would keep it, and the team waiting, until its TCP gave up (often
 * two hours). Above the statement deadline, so a slow statement is never cut by it.
 */
export const IN_TRANSACTION_BOUND_MS = 30_000;

/** The statement that sets it, run on every new pool connection (a SET: PgBouncer refuses startup options). */
export const endWhenStuckInTransaction = (idleMs: number): string =>
  `SET idle_in_transaction_session_timeout = ${Math.ceil(idleMs)}`;

/** What node-postgres says when a statement passed its `query_timeout`. */
export const QUERY_TIMEOUT_WORDS = 'Query read timeout';
