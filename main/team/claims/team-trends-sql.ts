// The trends as the team store counts them (contract/trends.ts defines each series), on the Team screen's
// definitions and SQL pieces (team-overview-sql.ts). Every statement begins with the range's days, made here
// by generate_series over the desk's calendar days: $1 the first day, $2 the last, $3 the time zone, $4 the
// store's now. A day runs from its midnight to the next (23 or 25 hours on a change of daylight saving time),
// cut at now; its figure is taken at its end, which belongs to the next day (what happened at midnight
// sharp is the next day's). The days are materialized (and so are the visits, team-overview-sql.ts): inlined,
// each day's time zone arithmetic, and the window over the history, would be done again for every row joined.
import { endOfSecond, lastActor, STATUS_CHANGES, seconds, VISITS } from './team-overview-sql.ts';

const DAYS = `days AS MATERIALIZED (
  SELECT d::date AS day, d AT TIME ZONE $3 AS day_from,
    least((d + interval '1 day') AT TIME ZONE $3, $4::timestamptz) AS day_end
  FROM generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') AS d
)`;

const DAY = `to_char(d.day, 'YYYY-MM-DD')`;

/**
 * Whether visit `v` was still going at the end of day `d`, its customer not gone by then. Its first line does
 * not depend on the day: it leaves out at once every visit over before the range began (most of a long history).
 */
const OPEN_AT_END = `(v.left_at IS NULL OR v.left_at >= (SELECT min(day_from) FROM days))
  AND v.entered < d.day_end AND (v.left_at IS NULL OR v.left_at >= d.day_end)
  AND (c.gone_at IS NULL OR c.gone_at >= d.day_end)`;

/** The range's days, oldest first. */
export const TREND_DAYS = `WITH ${DAYS} SELECT ${DAY} AS day FROM days d ORDER BY d.day`;

/**
 * Cases per day and section at the day's end: $5 the terminal statuses (not counted), $6 the statuses that are
 * an open section's own name (the rest are 'other').
 */
export const BACKLOG = `
WITH ${DAYS}, ${VISITS}
SELECT ${DAY} AS day, CASE WHEN v.status = ANY ($6) THEN v.status ELSE 'other' END AS section,
  count(*)::int AS count
FROM days d JOIN visits v ON v.entered < d.day_end JOIN vetted.customers c ON c.id = v.customer_id
WHERE ${OPEN_AT_END} AND NOT v.status = ANY ($5)
GROUP BY 1, 2`;

/**
 * Closings per day and reviewer: a status history entering a terminal status ($5) from one that was not (or
 * first thing), credited to the last actor ($6: entries that are nobody's). A null login: nobody acted on it.
 */
export const CLOSED_PER_DAY = `
WITH ${DAYS}, ${STATUS_CHANGES}, closed AS MATERIALIZED (
  SELECT customer_id, at FROM changes WHERE status = ANY ($5) AND (before IS NULL OR NOT before = ANY ($5))
)
SELECT ${DAY} AS day, ${lastActor('k.customer_id', 'k.at', '$6')} AS login, count(*)::int AS count
FROM days d JOIN closed k ON k.at >= d.day_from AND k.at < d.day_end
GROUP BY 1, 2`;

const WEEKS = `weeks AS (
  SELECT greatest(date_trunc('week', day)::date, $1::date) AS week_from, min(day_from) AS from_at,
    max(day_end) AS to_at
  FROM days GROUP BY 1
)`;

const percentiles = (name: string, to: string, mine: string) => `
  count(${to}) FILTER (WHERE ${mine})::int AS ${name}_count,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds('m.entered', to)}) FILTER (WHERE ${mine})
    AS ${name}_median,
  percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds('m.entered', to)}) FILTER (WHERE ${mine})
    AS ${name}_p90`;

/**
 * Per week of the range (from Monday, or from the range's first day), the visits that began in it (not to a
 * terminal status, $5): time to the first action (the first audit entry during the visit but how a case comes
 * in and nobody's, $6) and to resolution (the next status, by now), median and 90th percentile. $7: entries
 * that are nobody's, for who resolved a visit. $8: whose work (null: everyone's, and who resolved a visit is
 * not looked up) — the first action's actor, the resolution's last actor.
 */
export const TIMES_PER_WEEK = `
WITH ${DAYS}, ${WEEKS}, ${VISITS}, measured AS (
  SELECT w.week_from, v.entered, f.at AS first_at, f.actor AS first_actor,
    CASE WHEN v.left_at < $4 THEN v.left_at END AS left_at,
    CASE WHEN $8::text IS NOT NULL AND v.left_at < $4 THEN ${lastActor('v.customer_id', 'v.left_at', '$7')} END
      AS resolver
  FROM weeks w JOIN visits v ON v.entered >= w.from_at AND v.entered < w.to_at
  LEFT JOIN LATERAL (
    SELECT a.at, a.actor FROM vetted.audit_log a
    WHERE a.customer_id = v.customer_id AND a.at >= v.entered AND a.at < $4
      AND (v.left_at IS NULL OR a.at < ${endOfSecond('v.left_at')}) AND NOT a.action = ANY ($6)
    ORDER BY a.at, a.seq LIMIT 1
  ) f ON true
  WHERE NOT v.status = ANY ($5)
)
SELECT to_char(w.week_from, 'YYYY-MM-DD') AS week_from,
  ${percentiles('first', 'm.first_at', '$8::text IS NULL OR m.first_actor = $8')},
  ${percentiles('resolution', 'm.left_at', '$8::text IS NULL OR m.resolver = $8')}
FROM weeks w LEFT JOIN measured m ON m.week_from = w.week_from
GROUP BY w.week_from ORDER BY w.week_from`;

/** The actions that change who holds a case: the claims keep only who holds it now, the audit log every change. */
const CLAIM_ACTIONS = `('claim.take', 'claim.takeOver', 'claim.reassign', 'claim.release', 'claim.expire')`;

/**
 * $5's holds (none when $5 is null): from each claim entry to the customer's next one, who held the case. A take
 * (by an action, by "next") or a take-over is its actor's; a reassignment is its detail's "to <login>"; a release
 * or an expiry is nobody's. A claim idle past its time counts as held until the store's sweep records its expiry.
 */
const HOLDS = `claim_entries AS (
  SELECT customer_id, at, lead(at) OVER (PARTITION BY customer_id ORDER BY at, seq) AS until,
    CASE action WHEN 'claim.reassign' THEN substr(detail, strpos(detail, ' to ') + 4)
      WHEN 'claim.take' THEN actor WHEN 'claim.takeOver' THEN actor END AS holder
  FROM vetted.audit_log WHERE action IN ${CLAIM_ACTIONS} AND $5::text IS NOT NULL
), holds AS MATERIALIZED (SELECT customer_id, at, until FROM claim_entries WHERE holder = $5)`;

/**
 * Overdue cases per day, at its end: open in an ageing section (its status: retry, document) since longer than
 * its target ($6: status → hours); $5, whose (null: everyone's) — held by that reviewer at the day's end.
 */
export const OVERDUE_PER_DAY = `
WITH ${DAYS}, ${VISITS}, ${HOLDS}
SELECT ${DAY} AS day, count(v.customer_id)::int AS count
FROM days d LEFT JOIN (visits v JOIN vetted.customers c ON c.id = v.customer_id)
  ON ${OPEN_AT_END} AND v.status IN ('retry', 'document')
  AND v.entered <= d.day_end - ($6::jsonb ->> v.status)::int * interval '1 hour'
  AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM holds h WHERE h.customer_id = v.customer_id
    AND h.at < d.day_end AND (h.until IS NULL OR h.until >= d.day_end)))
GROUP BY d.day ORDER BY d.day`;
