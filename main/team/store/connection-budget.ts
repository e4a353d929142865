// How many connections a desk and a hub open to the team store, in one place: PostgreSQL's max_connections
// is shared by the whole team (docs/team-mode.md states the formula), so each process keeps to a budget.
//
// A desk's sessions:
// - its change listener (journal/change-listener.ts): one session, always open, LISTENing for the replica,
//   the team outbox's submits and four eyes; it is also how the desk knows the store answers (presence);
// - its outbox drainer's session (outbox/drain.ts), when it sends drafts: it holds the liveness lock;
// - its pool, for everything else (claims, notes, drafts, the team journal, the replica's catch-up, the
//   drainer's leases): what is left of the budget. A caller that finds every pooled connection busy waits
//   for one (waiting-pool.ts), never opens another.
// Besides these, Settings → Team's check of the store and bringing (or keeping) history (team/history/) each
// open one connection of their own for as long as they run (milliseconds for the check; a bring is done once).
//
// A hub has the same two sessions, the session holding the listener role (hub/leadership.ts), and a larger
// pool: it writes every webhook delivery the team receives, many at once.

/** The most connections a running desk keeps to the team store at once. */
export const DESK_CONNECTIONS = 4;

/** The hub's pool: deliveries arrive concurrently, and each is one short transaction. */
const HUB_POOL = 10;

/** The hub's sessions of its own: its change listener, its drainer's, and the listener role's. */
const HUB_SESSIONS = 3;

/** The most connections a hub keeps to the team store at once. */
export const HUB_CONNECTIONS = HUB_POOL + HUB_SESSIONS;

/** The outbox drainer's session: one connection, holding its liveness lock. */
export const DRAINER_SESSION = 1;

/** A short-lived task's pool (history brought or kept): it runs one transaction at a time. */
export const TASK_POOL = 1;

/**
 * The pool's size for a desk or hub: a desk's budget less its sessions of its own (the listener's, and the
 * drainer's when it sends drafts).
 */
export function poolSize(role: 'desk' | 'hub', drains: boolean): number {
  if (role === 'hub') return HUB_POOL;
  return DESK_CONNECTIONS - 1 - (drains ? DRAINER_SESSION : 0);
}
