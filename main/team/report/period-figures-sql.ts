// The period report's figures as the team store computes them (contract/period-report.ts defines each), from
// the Team screen's pieces (../claims/team-overview-sql.ts): the same status changes, the same "who closed it",
// the same visits. `$1` is the period's last moment counted, `$2` its first; both come from PERIOD_BOUNDS.
import { lastActor, STATUS_CHANGES } from '../claims/team-overview-sql.ts';

/**
 * The first day's midnight and the last day's end (the next midnight, less a millisecond: every time the
 * store keeps is to the millisecond or coarser) in the time zone $3, the end no later than now ($4).
 */
export const PERIOD_BOUNDS = `
SELECT $1::date::timestamp AT TIME ZONE $3 AS start_at,
  least(($2::date + 1)::timestamp AT TIME ZONE $3 - interval '1 millisecond', $4::timestamptz) AS end_at`;

/**
 * Customers whose status history begins in the period, by the section of their first status ($3: the
 * statuses that are a section's own name; the rest are 'other') and by who brought them in: the first
 * entry of theirs among $4 (customer.create, customer.add). Null: no reviewer's hand.
 */
export const OPENED = `
WITH firsts AS (
  SELECT DISTINCT ON (customer_id) customer_id, status, at FROM vetted.status_history
  ORDER BY customer_id, seq
)
SELECT CASE WHEN f.status = ANY ($3) THEN f.status ELSE 'other' END AS section,
  (SELECT a.actor FROM vetted.audit_log a WHERE a.customer_id = f.customer_id AND a.action = ANY ($4)
   ORDER BY a.seq LIMIT 1) AS reviewer,
  count(*)::int AS count
FROM firsts f WHERE f.at >= $2 AND f.at <= $1 GROUP BY 1, 2`;

/**
 * Closings in the period ($3: the terminal statuses), by the section the case left ($5: the open statuses
 * that are a section's name; first thing or another status: 'other') and by the reviewer who closed it (the
 * Team screen's "Closed": the last to act, entries no reviewer made ($4) aside).
 */
export const CLOSED_IN_PERIOD = `
WITH ${STATUS_CHANGES}, closed AS (
  SELECT customer_id, at, before FROM changes
  WHERE status = ANY ($3) AND (before IS NULL OR NOT before = ANY ($3)) AND at >= $2 AND at <= $1
)
SELECT CASE WHEN closed.before = ANY ($5) THEN closed.before ELSE 'other' END AS section,
  ${lastActor('closed.customer_id', 'closed.at', '$4')} AS reviewer, count(*)::int AS count
FROM closed GROUP BY 1, 2`;

/**
 * The cases open at the period's end ($1) in an ageing section of the history (retry, document), by section,
 * and those whose visit began before the section's moment in $2 (section → the moment before which a case
 * is overdue at the end). A customer gone by then is left out.
 */
export const OVERDUE_AT_END = `
WITH ${STATUS_CHANGES}, ongoing AS (
  -- The last visit begun by the end: the status the case had then, and since when.
  SELECT DISTINCT ON (customer_id) customer_id, status, at AS entered FROM changes
  WHERE before IS DISTINCT FROM status AND at <= $1 ORDER BY customer_id, seq DESC
)
SELECT v.status AS section,
  count(*) FILTER (WHERE v.entered < ($2::jsonb ->> v.status)::timestamptz)::int AS overdue
FROM ongoing v JOIN vetted.customers k ON k.id = v.customer_id
WHERE v.status IN ('retry', 'document') AND (k.gone_at IS NULL OR k.gone_at > $1)
GROUP BY 1`;

/**
 * Four eyes: the requests made in the period by kind, each with its first decision at or before the end
 * (the audit entry of a decision names the request's id first), else still pending then.
 */
export const FOUR_EYES = `
SELECT p.kind, coalesce((
    SELECT CASE a.action WHEN 'approval.approve' THEN 'approved' WHEN 'approval.reject' THEN 'rejected'
      WHEN 'approval.cancel' THEN 'cancelled' ELSE 'expired' END
    FROM vetted.audit_log a
    WHERE a.action IN ('approval.approve', 'approval.reject', 'approval.cancel', 'approval.expire')
      AND starts_with(a.detail, p.id::text || ': ') AND a.at <= $1
    ORDER BY a.seq LIMIT 1), 'pending') AS decision,
  count(*)::int AS count
FROM vetted.approvals p WHERE p.requested_at >= $2 AND p.requested_at <= $1 GROUP BY 1, 2`;

/** The documents the service rejected in the period: its events of topic $3, by when the service made them. */
export const REJECTED_DOCUMENTS = `
SELECT resource_id AS document FROM vetted.events
WHERE topic = $3 AND created >= $2 AND created <= $1 ORDER BY created, id`;

/** The audit chain's last entry at or before the end: what an examiner checks the chain up to. */
export const AUDIT_HEAD_AT = `
SELECT seq::float8 AS seq, chain_hash FROM vetted.audit_log
WHERE at <= $1 AND chain_hash IS NOT NULL ORDER BY seq DESC LIMIT 1`;
