// The rows of one queue window: a page in the order asked for, after a row (`after`) or at an offset, which
// far into an unfiltered list starts at its hour rather than at the top (queue-jump.ts).
import type { QueueWindowInput, Section } from '#contract/queue.ts';
import type { QueueSort } from '#contract/queue-view.ts';
import type { Params, Statements } from './db.ts';
import { queuedDraftCount } from './queue-counts.ts';
import { afterCondition, ORDERS, orderBy } from './queue-filters.ts';
import { JUMP_THRESHOLD, jumpStart } from './queue-jump.ts';
import type { QueueRowRecord } from './queue-row.ts';
import { type Source, where } from './queue-sources.ts';

const CUSTOMER_COLUMNS = `c.id, c.name, c.email, c.status, c.section, c.status_since, c.changed_at,
  c.gone_at IS NOT NULL AS gone, c.note, (SELECT k.holder FROM claims k WHERE k.customer_id = c.id) AS claimed_by`;
const DRAFT_COLUMNS = `d.id, d.name, d.email, d.state AS status, 'drafts' AS section, d.updated AS status_since,
  d.updated AS changed_at, 0 AS gone, d.last_error AS note, NULL AS claimed_by`;

export function windowRows(
  sql: Statements,
  source: Source,
  section: Section | 'all',
  sort: QueueSort,
  input: QueueWindowInput,
): QueueRowRecord[] {
  const order = ORDERS[sort];
  const customers = { where: [...source.customers.where], params: { ...source.customers.params } };
  const drafts = { where: [...source.drafts.where], params: { ...source.drafts.params } };
  const page: Params = { limit: input.limit };
  if (input.after) {
    customers.where.push(afterCondition(order.customerKey, 'c.id', order, input.after, customers.params));
    drafts.where.push(afterCondition(order.draftKey, 'd.id', order, input.after, drafts.params));
  } else page.offset = input.offset;
  const jump =
    !input.after && sort === 'waiting' && section !== 'drafts'
      ? jumpFor(sql, source, section, input.offset)
      : null;
  if (jump) {
    customers.where.push('c.status_since >= :jumpFrom');
    drafts.where.push('d.updated >= :jumpFrom');
    customers.params.jumpFrom = jump.from;
    drafts.params.jumpFrom = jump.from;
    page.offset = input.offset - jump.before;
  }
  const limit = input.after ? 'LIMIT :limit' : 'LIMIT :limit OFFSET :offset';
  const draftSelect = `SELECT ${DRAFT_COLUMNS}, ${order.draftKey} AS sort_key FROM drafts d
    ${where(["d.state <> 'created'", ...drafts.where])}`;
  if (section === 'drafts') {
    return sql.all(`${draftSelect} ${orderBy(order.draftKey, 'd.id', order)} ${limit}`, {
      ...drafts.params,
      ...page,
    });
  }
  const customerSelect = `SELECT ${CUSTOMER_COLUMNS}, ${order.customerKey} AS sort_key FROM ${source.from}`;
  if (section === 'all') {
    return sql.all(
      `${source.with} ${customerSelect} ${where(customers.where)} UNION ALL ${draftSelect}
       ${orderBy(order.unionKey, 'id', order)} ${limit}`,
      { ...customers.params, ...drafts.params, ...page },
    );
  }
  return sql.all(
    `${source.with} ${customerSelect} ${where([...customers.where, 'c.section = :section'])}
     ${orderBy(order.customerKey, 'c.id', order)} ${limit}`,
    { ...customers.params, ...page, section },
  );
}

/**
 * The matches a walk implies in its list: its page ended `walked` rows into the order's index (counted
 * on the index alone, no row read), so about (offset + rows) × length ÷ walked rows match in all.
 */
export function impliedMatches(
  sql: Statements,
  section: Section | 'all',
  sort: QueueSort,
  input: QueueWindowInput,
  found: QueueRowRecord[],
): number | null {
  if (section === 'drafts') return null;
  const last = found.at(-1) as QueueRowRecord;
  const order = ORDERS[sort];
  const params: Params = { lastKey: keyOf(last, sort), lastId: last.id };
  const conditions = [`(${order.customerKey}, c.id) ${order.descending ? '>=' : '<='} (:lastKey, :lastId)`];
  if (section !== 'all') {
    conditions.push('c.section = :section');
    params.section = section;
  }
  const walked = sql.get<{ n: number }>(
    `SELECT count(*) AS n FROM customers c ${where(conditions)}`,
    params,
  )?.n;
  const length = sql.get<{ n: number }>(
    `SELECT sum(customers) AS n FROM section_counts ${section === 'all' ? '' : 'WHERE section = :section'}`,
    section === 'all' ? {} : { section },
  )?.n;
  return walked && length ? ((input.offset + found.length) * length) / walked : null;
}

/** A far place in an unfiltered list, longest waiting first: start at its hour, not at the top. */
function jumpFor(
  sql: Statements,
  source: Source,
  section: Exclude<Section, 'drafts'> | 'all',
  offset: number,
) {
  if (offset < JUMP_THRESHOLD || source.with || source.customers.where.length > 0) return null;
  if (section !== 'all') return jumpStart(sql, section, offset);
  // Drafts (few) interleave with customers: start early enough for every draft to be before the place.
  const queued = queuedDraftCount(sql, source.drafts);
  const start = jumpStart(sql, 'all', Math.max(0, offset - queued));
  if (!start) return null;
  const draftsBefore = queuedDraftCount(sql, {
    where: ['d.updated < :jumpFrom', ...source.drafts.where],
    params: { ...source.drafts.params, jumpFrom: start.from },
  });
  return { from: start.from, before: start.before + draftsBefore };
}

function keyOf(row: QueueRowRecord, sort: QueueSort): string {
  return sort === 'name' ? row.name : sort === 'lastChange' ? row.changed_at : row.status_since;
}
