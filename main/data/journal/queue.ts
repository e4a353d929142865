// The reviewer's queue: windows of rows and live counts, answered from indexes so that the cost of a
// screen does not grow with the number of customers (bench/queue.ts measures it). A search first takes
// at most COUNT_CAP + 1 matches from its index: that many or fewer, and everything (rows, counts) is
// answered from them; more ("1,000+"), and the rows come from walking the order's index, testing each
// row, which finds a page of a broad search after a few hundred rows whatever the queue's length.

import type { QueueWindow, QueueWindowInput } from '#contract/queue.ts';
import { AGEING_SECTIONS, COUNT_CAP, type QueueSort } from '#contract/queue-view.ts';
import type { Statements, Sync } from './db.ts';
import {
  type Counts,
  cappedCounts,
  emptyCounts,
  groupedCounts,
  matchCounts,
  overdueCounts,
  queuedDraftCount,
  storedCounts,
  unclaimedCounts,
} from './queue-counts.ts';
import { type Conditions, customerFilters, draftFilters } from './queue-filters.ts';
import { holderCounts } from './queue-holders.ts';
import { type QueueRowRecord, queueRowFromRecord } from './queue-row.ts';
import { impliedMatches, windowRows } from './queue-rows.ts';
import { addDraftPatterns, CAP, narrowTo, type Source, walkTesting } from './queue-sources.ts';
import type { ClaimScope, DueBefore, OverdueCase, QueueRepository } from './repositories/queue.ts';
import { planSearch, type SearchPlan } from './search.ts';

/** Matches the search index is asked for first: fewer, and the search is narrow (answered from them). */
const PROBE = 60;
/** Estimated matches above which a search is broad: "1,000+" with room for the estimate's error. */
const BROAD_COUNT = 2 * COUNT_CAP;

interface QueueState {
  sql: Statements;
  notedMatching: (term: string) => string[];
  hasNotesTable: boolean;
}

/** What a window's counting settles: the counts, whether the search is broad, and where rows come from. */
interface Counted {
  counts: Counts;
  broad: boolean;
  source: Source;
  /** The rows a walk found already (a search with many matches), else null. */
  found: QueueRowRecord[] | null;
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
  const state: QueueState = { sql, notedMatching, hasNotesTable };
  return {
    window: (input, due = {}, claim = undefined) => queueWindow(state, input, due, claim),
    holderCounts: (due) => holderCounts(sql, due),
    overdueCounts: (due) => overdueCounts(sql, due),
    wentOverdue: (from, until, limit) => wentOverdue(sql, from, until, limit),
  };
}

function queueWindow(
  state: QueueState,
  input: QueueWindowInput,
  due: DueBefore,
  claim: ClaimScope | undefined,
): QueueWindow {
  const { sql } = state;
  const { section, offset, limit } = input;
  const sort = input.sort ?? 'waiting';
  const context = { filters: input.filters ?? {}, due, hasNotesTable: state.hasNotesTable, claim };
  const filters = customerFilters(context);
  const plan = planSearch(input.search);
  const initial: Source = {
    with: '',
    from: 'customers c',
    customers: filters,
    drafts: draftFilters(context),
  };
  addDraftPatterns(initial, plan);
  const {
    counts,
    broad,
    source,
    found: walked,
  } = plan
    ? searchCounts(sql, initial, plan, state.notedMatching(input.search), sort, input)
    : { counts: filterCounts(sql, filters, claim), broad: false, source: initial, found: null };
  counts.drafts = queuedDraftCount(sql, source.drafts);
  const counted = section === 'all' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[section];
  const capped = broad || Object.values(counts).some((n) => n > COUNT_CAP);
  // A broad search's length is not counted: "1,000+" until a page shows where the list ends.
  const length = broad ? CAP : counted;
  const found =
    walked ?? (length > offset || input.after ? windowRows(sql, source, section, sort, input) : []);
  const total = broad && found.length < limit ? Math.min(CAP, offset + found.length) : length;
  return {
    rows: found.slice(0, Math.max(0, total - offset)).map(queueRowFromRecord),
    total,
    counts,
    ...(capped ? { capped } : {}),
  };
}

/**
 * A search's counts, and the source its rows come from. A search that its index answers with few matches
 * is narrow: rows and counts come from them. The index is asked for a few matches first (PROBE): fewer,
 * and they are all.
 */
function searchCounts(
  sql: Statements,
  source: Source,
  plan: SearchPlan,
  noted: string[],
  sort: QueueSort,
  input: QueueWindowInput,
): Counted {
  const narrowed = narrowTo(source, plan, noted);
  const probed = matchCounts(sql, narrowTo(source, plan, noted, PROBE));
  if (probed.raw < PROBE) return { counts: probed.counts, broad: false, source: narrowed, found: null };
  // Many matches: a page is found by walking the order's index, testing each row, and the walk's
  // length tells the share of rows that match. A clearly broad search is not counted at all. (With
  // filters the walk's length says nothing about that share: the matches are counted instead.)
  let found: QueueRowRecord[] | null = null;
  if (source.customers.where.length === 0) {
    const walking = walkTesting(source, plan, noted);
    found = windowRows(sql, walking, input.section, sort, input);
    const implied =
      found.length >= input.limit ? impliedMatches(sql, input.section, sort, input, found) : null;
    if (implied !== null && implied > BROAD_COUNT) {
      return { counts: emptyCounts(), broad: true, source: walking, found };
    }
  }
  const matched = matchCounts(sql, narrowed);
  const broad = matched.raw > COUNT_CAP;
  return {
    counts: matched.counts,
    broad,
    source: broad ? walkTesting(source, plan, noted) : narrowed,
    found,
  };
}

/** Counts without a search: "Unclaimed" from the claims, a reviewer's cases grouped, filters capped, else stored. */
function filterCounts(sql: Statements, filters: Conditions, claim: ClaimScope | undefined): Counts {
  if (filters.where.length === 1 && claim && 'unclaimed' in claim) return unclaimedCounts(sql);
  if (filters.where.length === 0) return storedCounts(sql);
  return claim && 'holder' in claim ? groupedCounts(sql, filters) : cappedCounts(sql, filters);
}

function wentOverdue(sql: Statements, from: DueBefore, until: DueBefore, limit: number): OverdueCase[] {
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
}
