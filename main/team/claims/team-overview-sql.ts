// The Team screen's figures as the team store computes them (contract/team-overview.ts defines each). Every
// statement reads what the store keeps for its own sake (status history, audit chain, claims, the server's
// sessions) and counts nothing aside: a figure is always what the log says now. `$1` is the moment asked
// about: the store's clock (STORE_NOW), never a desk's, so that every desk sees the same figures; a claim's
// expiry follows the store's clock itself, as the claim functions do (migration 7).

/**
 * The store's "now" for the figures: its clock, unless the session names another moment in the setting
 * `vetted.now` (a test fixing time; a reviewer who sets it moves only their own session's figures, made of
 * what they may read anyway).
 */
export const STORE_NOW = `
SELECT coalesce(nullif(current_setting('vetted.now', true), '')::timestamptz, now()) AS now`;

/**
 * The end of the second a status changed in. The service dates statuses to the second while desks stamp audit
 * entries to the millisecond: the action that caused a change (at :31.400) must count before the change the
 * service dated :31.000, so an action belongs to a visit (or a closing) up to the end of that second.
 */
export const endOfSecond = (at: string) => `(date_trunc('second', ${at}) + interval '1 second')`;

/** Every status history entry with the status before it (`before`; null: the customer's first). */
export const STATUS_CHANGES = `changes AS (
  SELECT customer_id, seq, status, at, lag(status) OVER (PARTITION BY customer_id ORDER BY seq) AS before
  FROM vetted.status_history
)`;

/**
 * Who closed (or resolved) a case: the actor of the last audit entry on `customer` up to the end of the second
 * of `at`, entries no reviewer made (`nobodys`, a parameter) aside; null when nobody acted on it.
 */
export const lastActor = (
  customer: string,
  at: string,
  nobodys: string,
) => `(SELECT a.actor FROM vetted.audit_log a
        WHERE a.customer_id = ${customer} AND a.at < ${endOfSecond(at)} AND NOT a.action = ANY (${nobodys})
        ORDER BY a.at DESC, a.seq DESC LIMIT 1)`;

/** Midnight today and Monday midnight this week, in the time zone $2, as moments. */
export const BOUNDARIES = `
SELECT date_trunc('day', $1::timestamptz AT TIME ZONE $2) AT TIME ZONE $2 AS today_from,
       date_trunc('week', $1::timestamptz AT TIME ZONE $2) AT TIME ZONE $2 AS week_from`;

/** Desks ($1) and hubs ($2) connected now, by login: each keeps one change-listener session so named. */
export const ONLINE = `
SELECT usename::text AS login, count(*) FILTER (WHERE application_name = $1)::int AS desks,
  count(*) FILTER (WHERE application_name = $2)::int AS hubs
FROM pg_catalog.pg_stat_activity
WHERE datname = current_database() AND application_name IN ($1, $2) AND usename IS NOT NULL
GROUP BY usename`;

/** Cases held now, by holder, and those past their section’s target ($1: section → the moment before which). */
export const HOLDING = `
SELECT k.holder AS login, count(*)::int AS holding,
  count(*) FILTER (WHERE c.status_since < ($1::jsonb ->> c.section)::timestamptz)::int AS overdue
FROM vetted.claims k JOIN vetted.customers c ON c.id = k.customer_id
WHERE k.holder IS NOT NULL AND k.expires_at > now() AND c.gone_at IS NULL
GROUP BY k.holder`;

/**
 * Cases closed this week ($2) up to now ($1), and today ($3): a status history entering a terminal status
 * ($4) from one that was not (or first thing), each the closing of the last actor in the audit log on that
 * customer up to that moment, entries no reviewer made ($5) aside. A null login: nobody acted on it.
 */
export const CLOSED = `
WITH ${STATUS_CHANGES}, closed AS (
  SELECT customer_id, at FROM changes
  WHERE status = ANY ($4) AND (before IS NULL OR NOT before = ANY ($4)) AND at >= $2 AND at <= $1
)
SELECT ${lastActor('closed.customer_id', 'closed.at', '$5')} AS login,
  count(*) FILTER (WHERE closed.at >= $3)::int AS today,
  count(*)::int AS week
FROM closed GROUP BY 1`;

/**
 * The common table expressions `changes` (each status entry with the one before it) and `visits` (runs of one
 * status in a customer's history, a repeated entry continuing the run: when each was entered and left).
 * Materialized: joined to a range of days, an inlined window would be computed again for every day.
 */
export const VISITS = `${STATUS_CHANGES}, visits AS MATERIALIZED (
  SELECT customer_id, status, at AS entered, lead(at) OVER (PARTITION BY customer_id ORDER BY seq) AS left_at
  FROM changes WHERE before IS DISTINCT FROM status
)`;

export const seconds = (from: string, to: string) => `extract(epoch FROM ${to} - ${from})::float8`;
const percentiles = (name: string, from: string, to: string) => `
  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds(from, to)}) AS ${name}_median,
  percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds(from, to)}) AS ${name}_p90`;

/**
 * Per section, the visits that began from $2 to $1: a visit is a run of one status in a customer's history
 * (a repeated entry of the same status continues it), not a terminal one ($3); its section is its status
 * where that is a section's name ($5), else 'other'. Its first action is the first audit entry on the
 * customer during the visit other than $4; it is resolved when the next status came, by $1. The percentiles
 * skip what is null (a visit with no action yet, one still going).
 */
export const SECTIONS = `
WITH ${VISITS}, measured AS (
  SELECT CASE WHEN v.status = ANY ($5) THEN v.status ELSE 'other' END AS section, v.entered,
    CASE WHEN v.left_at <= $1 THEN v.left_at END AS left_at,
    (SELECT min(a.at) FROM vetted.audit_log a
     WHERE a.customer_id = v.customer_id AND a.at >= v.entered AND a.at <= $1
       AND (v.left_at IS NULL OR a.at < ${endOfSecond('v.left_at')}) AND NOT a.action = ANY ($4)) AS first_at
  FROM visits v WHERE NOT v.status = ANY ($3) AND v.entered >= $2 AND v.entered <= $1
)
SELECT section, count(*)::int AS entered, count(first_at)::int AS acted, count(left_at)::int AS resolved,
  ${percentiles('first', 'entered', 'first_at')},
  ${percentiles('resolution', 'entered', 'left_at')}
FROM measured GROUP BY section`;
