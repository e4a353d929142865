// The reviewer's queue: windows of rows and live counts, answered from indexes so that the cost of a
// screen does not grow with the number of customers (bench/queue.ts measures it). A search first takes
// at most COUNT_CAP + 1 matches from its index: that many or fewer, and everything (rows, counts) is
// answered from them; more ("1,000+"), and the rows come from walking the order's index, testing each
// row, which finds a page of a broad search after a few hundred rows whatever the queue's length.

import { type QueueWindowInput, SECTIONS, type Section } from '#contract/queue.ts';
import { AGEING_SECTIONS, type AgeingSection, COUNT_CAP, type QueueSort } from '#contract/queue-view.ts';
import type { Params, Statements, Sync } from './db.ts';
import {
  afterCondition,
  type Conditions,
  customerFilters,
  draftFilters,
  ORDERS,
  orderBy,
  overdueCondition,
} from './queue-filters.ts';
import { holderCounts } from './queue-holders.ts';
import { JUMP_THRESHOLD, jumpStart } from './queue-jump.ts';
import { type QueueRowRecord, queueRowFromRecord } from './queue-row.ts';
import type { OverdueCase, QueueRepository } from './repositories/queue.ts';
import { matchSet, nameOrEmailLike, planSearch, type SearchPlan } from './search.ts';

const CUSTOMER_COLUMNS = `c.id, c.name, c.email, c.status, c.section, c.status_since, c.changed_at,
  c.gone_at IS NOT NULL AS gone, c.note, (SELECT k.holder FROM claims k WHERE k.customer_id = c.id) AS claimed_by`;
const DRAFT_COLUMNS = `d.id, d.name, d.email, d.state AS status, 'drafts' AS section, d.updated AS status_since,
  d.updated AS changed_at, 0 AS gone, d.last_error AS note, NULL AS claimed_by`;
const CAP = COUNT_CAP + 1;
/** Matches the search index is asked for first: fewer, and the search is narrow (answered from them). */
const PROBE = 60;
/** Estimated matches above which a search is broad: "1,000+" with room for the estimate's error. */
const BROAD_COUNT = 2 * COUNT_CAP;

/** The SQL pieces that select the customers (or drafts) of one window. */
interface Source {
  /** A CTE `m(seq)` of at most CAP matches, when a search narrowed the queue to them. */
  with: string;
  from: string;
  customers: Conditions;
  drafts: Conditions;
}

/**
 * `notedMatching`: the customers whose notes (encrypted, so not in the search index) contain a term
 * (notes.ts); a search finds them too.
 */
export function queueRepository(
  sql: Statements,
  notedMatching: (term: string) => string[] = () => [],
): Sync<QueueRepository> {
  const hasNotesTable = !!sql.get("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'notes'");
  const emptyCounts = () =>
    Object.fromEntries(SECTIONS.map((section) => [section, 0])) as Record<Section, number>;

  const draftCount = (drafts: Conditions) =>
    sql.get<{ n: number }>(`SELECT count(*) AS n FROM drafts d ${where(drafts.where)}`, drafts.params)?.n ??
    0;

  /** Counts of a narrowed search, and how many matches the index gave before any other condition. */
  const matchCounts = (source: Source): { counts: Record<Section, number>; raw: number } => {
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
  };

  /** Counts per section with filters and no search: each stops at CAP. */
  const cappedCounts = (customers: Conditions) => {
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
  };

  /** No search, no filter: the counts the triggers keep, whatever the number of customers. */
  const storedCounts = () => {
    const counts = emptyCounts();
    for (const { section, n } of sql.all<{ section: Section; n: number }>(
      'SELECT section, customers AS n FROM section_counts',
    )) {
      counts[section] = n;
    }
    return counts;
  };

  /**
   * "Unclaimed" alone: every customer of a section but those someone holds (a few, read from the claims:
   * CROSS JOIN keeps SQLite from walking the customers instead).
   */
  const unclaimedCounts = () => {
    const counts = storedCounts();
    for (const { section, n } of sql.all<{ section: Section; n: number }>(
      `SELECT c.section AS section, count(*) AS n FROM claims k CROSS JOIN customers c ON c.id = k.customer_id
       WHERE k.holder IS NOT NULL GROUP BY c.section`,
    )) {
      counts[section] -= n;
    }
    return counts;
  };

  /** Counts per section in one pass: for a reviewer's cases (a few of many), read from their claims. */
  const groupedCounts = (customers: Conditions) => {
    const counts = emptyCounts();
    for (const { section, n } of sql.all<{ section: Section; n: number }>(
      `SELECT c.section AS section, count(*) AS n FROM customers c ${where(customers.where)} GROUP BY c.section`,
      customers.params,
    )) {
      counts[section] = n;
    }
    return counts;
  };

  const rows = (
    source: Source,
    section: Section | 'all',
    sort: QueueSort,
    input: QueueWindowInput,
  ): QueueRowRecord[] => {
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
        ? jumpFor(source, section, input.offset)
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
  };

  /**
   * The matches a walk implies in its list: its page ended `walked` rows into the order's index (counted
   * on the index alone, no row read), so about (offset + rows) × length ÷ walked rows match in all.
   */
  const impliedMatches = (
    section: Section | 'all',
    sort: QueueSort,
    input: QueueWindowInput,
    found: QueueRowRecord[],
  ) => {
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
  };

  /** A far place in an unfiltered list, longest waiting first: start at its hour, not at the top. */
  const jumpFor = (source: Source, section: Exclude<Section, 'drafts'> | 'all', offset: number) => {
    if (offset < JUMP_THRESHOLD || source.with || source.customers.where.length > 0) return null;
    if (section !== 'all') return jumpStart(sql, section, offset);
    // Drafts (few) interleave with customers: start early enough for every draft to be before the place.
    const queued = draftCount({
      where: ["d.state <> 'created'", ...source.drafts.where],
      params: source.drafts.params,
    });
    const start = jumpStart(sql, 'all', Math.max(0, offset - queued));
    if (!start) return null;
    const draftsBefore = draftCount({
      where: ["d.state <> 'created'", 'd.updated < :jumpFrom', ...source.drafts.where],
      params: { ...source.drafts.params, jumpFrom: start.from },
    });
    return { from: start.from, before: start.before + draftsBefore };
  };

  return {
    window(input, due = {}, claim = undefined) {
      const { section, offset, limit } = input;
      const sort = input.sort ?? 'waiting';
      const context = { filters: input.filters ?? {}, due, hasNotesTable, claim };
      const filters = customerFilters(context);
      const draftConditions = draftFilters(context);
      const plan = planSearch(input.search);
      const noted = plan ? notedMatching(input.search) : [];
      const source: Source = { with: '', from: 'customers c', customers: filters, drafts: draftConditions };
      addDraftPatterns(source, plan);

      let counts: Record<Section, number>;
      let broad = false;
      let found: QueueRowRecord[] | null = null;
      if (plan) {
        const narrowed = narrowTo(source, plan, noted);
        // A search that its index answers with few matches is narrow: rows and counts come from them.
        // The index is asked for a few matches first: fewer, and they are all (rows and counts come from them).
        const probed = matchCounts(narrowTo(source, plan, noted, PROBE));
        if (probed.raw < PROBE) {
          counts = probed.counts;
          Object.assign(source, narrowed);
        } else {
          // Many matches: a page is found by walking the order's index, testing each row, and the walk's
          // length tells the share of rows that match. A clearly broad search is not counted at all. (With
          // filters the walk's length says nothing about that share: the matches are counted instead.)
          if (filters.where.length === 0) {
            const walking = walkTesting(source, plan, noted);
            found = rows(walking, section, sort, input);
            const implied = found.length >= limit ? impliedMatches(section, sort, input, found) : null;
            broad = implied !== null && implied > BROAD_COUNT;
            if (broad) Object.assign(source, walking);
          }
          if (broad) counts = emptyCounts();
          else {
            const matched = matchCounts(narrowed);
            counts = matched.counts;
            broad = matched.raw > COUNT_CAP;
            Object.assign(source, broad ? walkTesting(source, plan, noted) : narrowed);
          }
        }
      } else if (filters.where.length === 1 && claim && 'unclaimed' in claim) {
        counts = unclaimedCounts();
      } else if (filters.where.length > 0) {
        counts = claim && 'holder' in claim ? groupedCounts(filters) : cappedCounts(filters);
      } else {
        counts = storedCounts();
      }
      counts.drafts = draftCount({
        where: ["d.state <> 'created'", ...source.drafts.where],
        params: source.drafts.params,
      });
      const counted =
        section === 'all' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[section];
      const capped = broad || Object.values(counts).some((n) => n > COUNT_CAP);
      // A broad search's length is not counted: "1,000+" until a page shows where the list ends.
      const length = broad ? CAP : counted;
      found ??= length > offset || input.after ? rows(source, section, sort, input) : [];
      const total = broad && found.length < limit ? Math.min(CAP, offset + found.length) : length;
      return {
        rows: found.slice(0, Math.max(0, total - offset)).map(queueRowFromRecord),
        total,
        counts,
        ...(capped ? { capped } : {}),
      };
    },

    holderCounts: (due) => holderCounts(sql, due),

    overdueCounts(due) {
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
    },

    wentOverdue(from, until, limit) {
      const found: OverdueCase[] = [];
      for (const section of AGEING_SECTIONS) {
        if (!from[section] || !until[section]) continue;
        found.push(
          ...sql.all<OverdueCase>(
            `SELECT id, name, section, status_since AS statusSince FROM customers
             WHERE section = :section AND status_since >= :from AND status_since < :until AND gone_at IS NULL
             ORDER BY status_since, id LIMIT :limit`,
            { section, from: from[section], until: until[section], limit },
          ),
        );
      }
      return found.sort((a, b) => a.statusSince.localeCompare(b.statusSince)).slice(0, limit);
    },
  };
}

/** The search's matches, taken from its index (at most CAP), with the conditions the index cannot check. */
function narrowTo(source: Source, plan: SearchPlan, noted: string[], cap = CAP): Source {
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

const NOTED = 'SELECT value FROM json_each(:noted)';

/** Every word tested on each row the order's index gives (or the customer's notes match). */
function walkTesting(source: Source, plan: SearchPlan, noted: string[]): Source {
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

function addDraftPatterns(source: Source, plan: SearchPlan | undefined): void {
  plan?.draftPatterns.forEach((pattern, i) => {
    source.drafts.params[`d${i}`] = pattern;
    source.drafts.where.push(nameOrEmailLike('d', `:d${i}`));
  });
}

function where(conditions: string[]): string {
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

function keyOf(row: QueueRowRecord, sort: QueueSort): string {
  return sort === 'name' ? row.name : sort === 'lastChange' ? row.changed_at : row.status_since;
}
