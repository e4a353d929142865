// The queue's counts per section, each answered the cheapest way its question allows: the counts the
// triggers keep, the claims, a capped count per section, or the matches of a narrowed search.
import { SECTIONS, type Section } from '#contract/queue.ts';
import { AGEING_SECTIONS, type AgeingSection } from '#contract/queue-view.ts';
import type { Params, Statements } from './db.ts';
import { type Conditions, overdueCondition } from './queue-filters.ts';
import { CAP, type Source, where } from './queue-sources.ts';
import type { DueBefore } from './repositories/queue.ts';

export type Counts = Record<Section, number>;

export const emptyCounts = () => Object.fromEntries(SECTIONS.map((section) => [section, 0])) as Counts;

/** Drafts in the queue (those not yet a customer) that meet `drafts`. */
export function queuedDraftCount(sql: Statements, drafts: Conditions): number {
  const conditions = ["d.state <> 'created'", ...drafts.where];
  return (
    sql.get<{ n: number }>(`SELECT count(*) AS n FROM drafts d ${where(conditions)}`, drafts.params)?.n ?? 0
  );
}

/** Counts of a narrowed search, and how many matches the index gave before any other condition. */
export function matchCounts(sql: Statements, source: Source): { counts: Counts; raw: number } {
  const counts = emptyCounts();
  let raw = 0;
  const perSection = sql.all<{ section: string; n: number }>(
    `${source.with} SELECT '' AS section, count(*) AS n FROM m
     UNION ALL SELECT c.section, count(*) FROM ${source.from} ${where(source.customers.where)} GROUP BY c.section`,
    source.customers.params,
  );
  for (const { section, n } of perSection) {
    if (section === '') raw = n;
    else counts[section as Section] = n;
  }
  return { counts, raw };
}

/** Counts per section with filters and no search: each stops at CAP. */
export function cappedCounts(sql: Statements, customers: Conditions): Counts {
  const counts = emptyCounts();
  for (const section of SECTIONS) {
    if (section === 'drafts') continue;
    counts[section] =
      sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM customers c
         ${where([...customers.where, 'c.section = :section'])} LIMIT ${CAP})`,
        { ...customers.params, section },
      )?.n ?? 0;
  }
  return counts;
}

/** No search, no filter: the counts the triggers keep, whatever the number of customers. */
export function storedCounts(sql: Statements): Counts {
  const counts = emptyCounts();
  for (const { section, n } of sql.all<{ section: Section; n: number }>(
    'SELECT section, customers AS n FROM section_counts',
  )) {
    counts[section] = n;
  }
  return counts;
}

/**
 * "Unclaimed" alone: every customer of a section but those someone holds (a few, read from the claims:
 * CROSS JOIN keeps SQLite from walking the customers instead).
 */
export function unclaimedCounts(sql: Statements): Counts {
  const counts = storedCounts(sql);
  for (const { section, n } of sql.all<{ section: Section; n: number }>(
    `SELECT c.section AS section, count(*) AS n FROM claims k CROSS JOIN customers c ON c.id = k.customer_id
     WHERE k.holder IS NOT NULL GROUP BY c.section`,
  )) {
    counts[section] -= n;
  }
  return counts;
}

/** Counts per section in one pass: for a reviewer's cases (a few of many), read from their claims. */
export function groupedCounts(sql: Statements, customers: Conditions): Counts {
  const counts = emptyCounts();
  for (const { section, n } of sql.all<{ section: Section; n: number }>(
    `SELECT c.section AS section, count(*) AS n FROM customers c ${where(customers.where)} GROUP BY c.section`,
    customers.params,
  )) {
    counts[section] = n;
  }
  return counts;
}

/** Overdue cases per section with a target, each count stopping at CAP. */
export function overdueCounts(sql: Statements, due: DueBefore): Record<AgeingSection, number> {
  const counted = { retry: 0, document: 0, review: 0 } as Record<AgeingSection, number>;
  for (const section of AGEING_SECTIONS) {
    if (!due[section]) continue;
    const params: Params = {};
    const condition = overdueCondition({ [section]: due[section] }, params);
    counted[section] =
      sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM customers c WHERE ${condition} LIMIT ${CAP})`,
        params,
      )?.n ?? 0;
  }
  return counted;
}
