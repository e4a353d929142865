// The trends as the desk's journal counts them when solo: the team store's statements (main/team/claims/
// team-trends-sql.ts) in SQLite's words, on the same definitions (contract/trends.ts). SQLite has no time
// zones, so the days come in as JSON (:days: day, from, end, and the moments before which a case entered
// "Needs retry" or "Needs document" is overdue at the end), made in TypeScript (trends.ts); and no
// percentile_cont, so the times per week come back as the visits measured, for percentileCont to finish.
// Lists of statuses and actions come in as JSON arrays. Times are ISO-8601 UTC text: text order is time order.

const DAYS = `days AS (
  SELECT json_extract(value, '$.day') AS day, json_extract(value, '$.from') AS day_from,
    json_extract(value, '$.end') AS day_end, json_extract(value, '$.retryDue') AS retry_due,
    json_extract(value, '$.documentDue') AS document_due
  FROM json_each(:days)
)`;

/** Runs of one status in a customer's history (a repeated entry continues the run), as the team store's VISITS. */
const VISITS = `changes AS (
  SELECT customer_id, seq, status, at, lag(status) OVER (PARTITION BY customer_id ORDER BY seq) AS before
  FROM status_history
), visits AS (
  SELECT customer_id, status, at AS entered, lead(at) OVER (PARTITION BY customer_id ORDER BY seq) AS left_at
  FROM changes WHERE before IS NOT status
)`;

const inList = (name: string) => `(SELECT value FROM json_each(:${name}))`;

/**
 * `a.at` is before the end of the second of `at`: the service dates statuses to the second, desks stamp audit
 * entries to the millisecond (team-overview-sql.ts' endOfSecond), so an entry counts up to the end of it.
 */
const byEndOfSecond = (at: string) => `substr(a.at, 1, 19) <= substr(${at}, 1, 19)`;

/** Whether visit `v` was still going at the end of day `d`, its customer not gone by then. */
const OPEN_AT_END = `v.entered < d.day_end AND (v.left_at IS NULL OR v.left_at >= d.day_end)
  AND (c.gone_at IS NULL OR c.gone_at >= d.day_end)`;

/**
 * Who an audit entry is: its actor, or this desk's reviewer (:reviewer) for entries written before the journal
 * recorded actors (''), which on a solo desk were all theirs.
 */
const ACTOR = `coalesce(nullif(a.actor, ''), :reviewer)`;

/** The last reviewer's entry on `customer` up to the end of the second of `at`, nobody's (:nobody) aside. */
const LAST_ACTOR = (customer: string, at: string) => `(SELECT ${ACTOR} FROM audit_log a
  WHERE a.customer_id = ${customer} AND ${byEndOfSecond(at)} AND a.action NOT IN ${inList('nobody')}
  ORDER BY a.at DESC, a.seq DESC LIMIT 1)`;

/** Cases per day and section at the day's end (:terminal not counted; :sections named after their status). */
export const BACKLOG = `
WITH ${DAYS}, ${VISITS}
SELECT d.day AS day, CASE WHEN v.status IN ${inList('sections')} THEN v.status ELSE 'other' END AS section,
  count(*) AS count
FROM days d JOIN visits v ON v.entered < d.day_end JOIN customers c ON c.id = v.customer_id
WHERE ${OPEN_AT_END} AND v.status NOT IN ${inList('terminal')}
GROUP BY 1, 2`;

/** Closings per day and reviewer, credited to the last actor (null: nobody acted on it). */
export const CLOSED_PER_DAY = `
WITH ${DAYS}, ${VISITS}, closed AS (
  SELECT customer_id, at FROM changes
  WHERE status IN ${inList('terminal')} AND (before IS NULL OR before NOT IN ${inList('terminal')})
)
SELECT d.day AS day, ${LAST_ACTOR('k.customer_id', 'k.at')} AS login, count(*) AS count
FROM days d JOIN closed k ON k.at >= d.day_from AND k.at < d.day_end
GROUP BY 1, 2`;

/**
 * The visits that began in each week (:weeks: week, from, to) to a status that is not terminal, each with its
 * first action (not how a case comes in, nor nobody's: :notFirst) and actor, and when it ended (by :now) and
 * who resolved it (the last actor before the next status).
 */
export const VISITS_PER_WEEK = `
WITH weeks AS (
  SELECT json_extract(value, '$.week') AS week_from, json_extract(value, '$.from') AS from_at,
    json_extract(value, '$.to') AS to_at
  FROM json_each(:weeks)
), ${VISITS}, measured AS (
  SELECT w.week_from, v.customer_id, v.entered, v.left_at,
    (SELECT a.seq FROM audit_log a
     WHERE a.customer_id = v.customer_id AND a.at >= v.entered AND a.at < :now
       AND (v.left_at IS NULL OR ${byEndOfSecond('v.left_at')}) AND a.action NOT IN ${inList('notFirst')}
     ORDER BY a.at, a.seq LIMIT 1) AS first_seq
  FROM weeks w JOIN visits v ON v.entered >= w.from_at AND v.entered < w.to_at
  WHERE v.status NOT IN ${inList('terminal')}
)
SELECT m.week_from AS week, m.entered AS entered, a.at AS first_at,
  CASE WHEN a.seq IS NOT NULL THEN ${ACTOR} END AS first_actor,
  CASE WHEN m.left_at < :now THEN m.left_at END AS left_at,
  CASE WHEN m.left_at < :now THEN ${LAST_ACTOR('m.customer_id', 'm.left_at')} END AS resolver
FROM measured m LEFT JOIN audit_log a ON a.seq = m.first_seq`;

/**
 * Overdue cases per day, at its end: open in an ageing section (its status: retry, document) since before the
 * day's due moment for it. A solo desk has no claims: its reviewer holds every case, so "mine" is all of them.
 */
export const OVERDUE_PER_DAY = `
WITH ${DAYS}, ${VISITS}
SELECT d.day AS day, count(*) AS count
FROM days d JOIN visits v ON v.entered < d.day_end JOIN customers c ON c.id = v.customer_id
WHERE ${OPEN_AT_END} AND ((v.status = 'retry' AND v.entered <= d.retry_due)
  OR (v.status = 'document' AND v.entered <= d.document_due))
GROUP BY 1`;
