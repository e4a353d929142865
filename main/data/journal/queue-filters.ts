// The SQL conditions of the queue's filters and orders: pieces that queue.ts puts together. Each piece
// carries the parameters it binds, so that a statement is given exactly the names it uses.
import { AGEING_SECTIONS, type QueueAfter, type QueueFilters, type QueueSort } from '#contract/queue-view.ts';
import type { Params } from './db.ts';
import type { ClaimScope, DueBefore } from './repositories/queue.ts';

export interface Conditions {
  where: string[];
  params: Params;
}

export interface FilterContext {
  filters: QueueFilters;
  due: DueBefore;
  /** Whether the journal has a `notes` table (written by the case panel's notes). */
  hasNotesTable: boolean;
  /** Team mode's claim filter, resolved to who holds the cases (`filters.claim` is the caller's to resolve). */
  claim?: ClaimScope | undefined;
}

const DAY_MS = 86_400_000;
/** The day after a `YYYY-MM-DD`: a range's end day is included, so the bound is the next midnight. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString();
const startOf = (day: string) => `${day}T00:00:00.000Z`;

function range(
  column: string,
  name: string,
  from: string | undefined,
  to: string | undefined,
  into: Conditions,
) {
  if (from) {
    into.where.push(`${column} >= :${name}From`);
    into.params[`${name}From`] = startOf(from);
  }
  if (to) {
    into.where.push(`${column} < :${name}Before`);
    into.params[`${name}Before`] = nextDay(to);
  }
}

/** Customers (`c`) that pass the filters. */
export function customerFilters({ filters, due, hasNotesTable, claim }: FilterContext): Conditions {
  const out: Conditions = { where: [], params: {} };
  range('c.created', 'created', filters.createdFrom, filters.createdTo, out);
  range('c.changed_at', 'changed', filters.changedFrom, filters.changedTo, out);
  if (filters.hasNotes) {
    // A journal from before the notes migration has no table, and so no customer with a note.
    out.where.push(hasNotesTable ? 'EXISTS (SELECT 1 FROM notes n WHERE n.customer_id = c.id)' : '0');
  }
  if (filters.overdue) out.where.push(overdueCondition(due, out.params));
  if (claim) out.where.push(claimCondition(claim, out.params));
  return out;
}

/** Customers (`c`) in a claim scope, from the claims team mode's replica copies (migration 10). */
function claimCondition(claim: ClaimScope, params: Params): string {
  if ('nothing' in claim) return '0';
  if ('unclaimed' in claim) {
    return 'NOT EXISTS (SELECT 1 FROM claims k WHERE k.customer_id = c.id AND k.holder IS NOT NULL)';
  }
  params.claimHolder = claim.holder;
  // From the holder's claims (their index) to the customers, not the other way round: a reviewer holds a few
  // of many cases, and testing each customer would read the whole queue for a count.
  return 'c.id IN (SELECT k.customer_id FROM claims k WHERE k.holder = :claimHolder)';
}

/** Drafts (`d`) that pass the filters: drafts have no notes, no ageing target and no claim. */
export function draftFilters({ filters, claim }: FilterContext): Conditions {
  const out: Conditions = { where: [], params: {} };
  if (filters.hasNotes || filters.overdue || claim) out.where.push('0');
  range('d.created', 'draftCreated', filters.createdFrom, filters.createdTo, out);
  range('d.updated', 'draftChanged', filters.changedFrom, filters.changedTo, out);
  return out;
}

/** A case is overdue while it exists and has waited in its section past that section's target. */
export function overdueCondition(due: DueBefore, params: Params): string {
  const each = AGEING_SECTIONS.filter((section) => due[section]).map((section) => {
    params[`due_${section}`] = due[section] as string;
    return `(c.section = '${section}' AND c.status_since < :due_${section})`;
  });
  return each.length > 0 ? `(c.gone_at IS NULL AND (${each.join(' OR ')}))` : '0';
}

/** How each order reads a customer's and a draft's key; ties go by id, in the same direction. */
interface Order {
  customerKey: string;
  draftKey: string;
  /** The key of the merged rows of "all" (a column of the union). */
  unionKey: string;
  descending: boolean;
}

export const ORDERS: Record<QueueSort, Order> = {
  waiting: { customerKey: 'c.status_since', draftKey: 'd.updated', unionKey: 'sort_key', descending: false },
  lastChange: {
    customerKey: 'c.changed_at',
    draftKey: 'd.updated',
    unionKey: 'sort_key',
    descending: true,
  },
  name: {
    customerKey: 'c.name COLLATE NOCASE',
    draftKey: 'd.name COLLATE NOCASE',
    unionKey: 'sort_key COLLATE NOCASE',
    descending: false,
  },
};

export function orderBy(key: string, id: string, order: Order): string {
  const direction = order.descending ? 'DESC' : 'ASC';
  return `ORDER BY ${key} ${direction}, ${id} ${direction}`;
}

/** Rows strictly after the given one in this order (keyset pagination). */
export function afterCondition(
  key: string,
  id: string,
  order: Order,
  after: QueueAfter,
  params: Params,
): string {
  params.afterKey = after.key;
  params.afterId = after.id;
  return `(${key}, ${id}) ${order.descending ? '<' : '>'} (:afterKey, :afterId)`;
}
