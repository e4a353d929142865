// Where the rows of one queue window come from: the whole customers table, a search's matches taken from
// its index (narrowTo), or every row of the order's index tested against the search's words (walkTesting).
import { COUNT_CAP } from '#contract/queue-view.ts';
import type { Conditions } from './queue-filters.ts';
import { matchSet, nameOrEmailLike, type SearchPlan } from './search.ts';

/** Counts stop here: one more than COUNT_CAP says "1,000+". */
export const CAP = COUNT_CAP + 1;

/** The SQL pieces that select the customers (or drafts) of one window. */
export interface Source {
  /** A CTE `m(seq)` of at most CAP matches, when a search narrowed the queue to them. */
  with: string;
  from: string;
  customers: Conditions;
  drafts: Conditions;
}

const NOTED = 'SELECT value FROM json_each(:noted)';

export function where(conditions: string[]): string {
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

/** The search's matches, taken from its index (at most CAP), with the conditions the index cannot check. */
export function narrowTo(source: Source, plan: SearchPlan, noted: string[], cap = CAP): Source {
  const customers = { where: [...source.customers.where], params: { ...source.customers.params } };
  const set = matchSet(plan, cap);
  Object.assign(customers.params, set.params);
  const patterns = plan.customerPatterns.map((pattern, i) => {
    customers.params[`c${i}`] = pattern;
    return nameOrEmailLike('c', `:c${i}`);
  });
  if (noted.length === 0) {
    customers.where.push(...patterns);
    return { ...source, with: set.with, from: 'm CROSS JOIN customers c ON c.seq = m.seq', customers };
  }
  // Customers whose notes match join the index's matches (a few ids: an IN list), whatever their name says.
  customers.params.noted = JSON.stringify(noted);
  if (patterns.length > 0) customers.where.push(`(${patterns.join(' AND ')} OR c.id IN (${NOTED}))`);
  // The index's matches keep their LIMIT inside a subquery (SQLite allows none before a UNION).
  const head = 'WITH m AS MATERIALIZED (';
  const matches = set.with.slice(head.length, -1);
  const withNoted = `${head}SELECT seq FROM (${matches}) UNION SELECT seq FROM customers WHERE id IN (${NOTED}))`;
  return { ...source, with: withNoted, from: 'm CROSS JOIN customers c ON c.seq = m.seq', customers };
}

/** Every word tested on each row the order's index gives (or the customer's notes match). */
export function walkTesting(source: Source, plan: SearchPlan, noted: string[]): Source {
  const customers = { where: [...source.customers.where], params: { ...source.customers.params } };
  const patterns = plan.draftPatterns.map((pattern, i) => {
    customers.params[`w${i}`] = pattern;
    return nameOrEmailLike('c', `:w${i}`);
  });
  if (noted.length === 0) customers.where.push(...patterns);
  else {
    customers.params.noted = JSON.stringify(noted);
    customers.where.push(`(${patterns.join(' AND ')} OR c.id IN (${NOTED}))`);
  }
  return { ...source, with: '', from: 'customers c', customers };
}

export function addDraftPatterns(source: Source, plan: SearchPlan | undefined): void {
  plan?.draftPatterns.forEach((pattern, i) => {
    source.drafts.params[`d${i}`] = pattern;
    source.drafts.where.push(nameOrEmailLike('d', `:d${i}`));
  });
}
