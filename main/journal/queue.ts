// The reviewer's queue: windows of rows and live counts, answered from indexes so that the cost of a
// screen does not grow with the number of customers (bench/queue.ts measures it).
import {
  type QueueRow,
  type QueueWindow,
  type QueueWindowInput,
  SECTIONS,
  type Section,
} from '../../contract/queue.ts';
import type { Params, Statements, Sync } from './db.ts';
import { planSearch, type SearchPlan } from './search.ts';

export interface QueueRepository {
  /** One screen of a section (or of all of them), longest waiting first, with the counts beside each. */
  window(input: QueueWindowInput): Promise<QueueWindow>;
}

interface RowRecord {
  id: string;
  name: string;
  email: string;
  status: string;
  section: Section;
  status_since: string;
  gone: number;
  note: string | null;
}

/** Customers and drafts give rows of the same shape, so that "all" can merge both in one ordered walk. */
const CUSTOMER_COLUMNS = `c.id, c.name, c.email, c.status, c.section, c.status_since,
  c.gone_at IS NOT NULL AS gone, c.note`;
const DRAFT_COLUMNS = `d.id, d.name, d.email, d.state AS status, 'drafts' AS section, d.updated AS status_since,
  0 AS gone, d.last_error AS note`;
const DRAFTS_IN_QUEUE = `d.state <> 'created'`;
const PAGE = 'LIMIT :limit OFFSET :offset';

/** The SQL pieces that select the customers (or drafts) matching a search. */
interface Source {
  /** A CTE `m(seq)` of matching customers, materialized first: a search matches few rows. */
  with: string;
  /** CROSS JOIN keeps `m` as the outer loop, so SQLite never walks a whole section to probe it. */
  customers: string;
  customerWhere: string[];
  customerParams: Params;
  draftWhere: string[];
  draftParams: Params;
}

/**
 * `notedMatching`: the customers whose notes (encrypted, so not in the search index) contain a term
 * (notes.ts); a search finds them too.
 */
export function queueRepository(
  sql: Statements,
  notedMatching: (term: string) => string[] = () => [],
): Sync<QueueRepository> {
  const counts = (source: Source): Record<Section, number> => {
    const counted = Object.fromEntries(SECTIONS.map((section) => [section, 0])) as Record<Section, number>;
    const perSection = source.with
      ? sql.all<{ section: Section; n: number }>(
          `${source.with} SELECT c.section, count(*) AS n FROM ${source.customers}
           ${where(source.customerWhere)} GROUP BY c.section`,
          source.customerParams,
        )
      : // No search: the counts the triggers keep, whatever the number of customers.
        sql.all<{ section: Section; n: number }>('SELECT section, customers AS n FROM section_counts');
    for (const { section, n } of perSection) counted[section] = n;
    counted.drafts =
      sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM drafts d ${where(source.draftWhere)}`,
        source.draftParams,
      )?.n ?? 0;
    return counted;
  };

  const rows = (source: Source, section: Section | 'all', page: Params): RowRecord[] => {
    const customers = `SELECT ${CUSTOMER_COLUMNS} FROM ${source.customers}`;
    const drafts = `SELECT ${DRAFT_COLUMNS} FROM drafts d ${where(source.draftWhere)}`;
    if (section === 'drafts') {
      return sql.all(`${drafts} ORDER BY d.updated, d.id ${PAGE}`, { ...source.draftParams, ...page });
    }
    if (section === 'all') {
      return sql.all(
        `${source.with} ${customers} ${where(source.customerWhere)} UNION ALL ${drafts}
         ORDER BY status_since, id ${PAGE}`,
        { ...source.customerParams, ...source.draftParams, ...page },
      );
    }
    return sql.all(
      `${source.with} ${customers} ${where([...source.customerWhere, 'c.section = :section'])}
       ORDER BY c.status_since, c.id ${PAGE}`,
      { ...source.customerParams, ...page, section },
    );
  };

  return {
    window({ section, search, offset, limit }) {
      const plan = planSearch(search);
      const source = withNoted(sourceFor(plan), plan ? notedMatching(search) : []);
      const counted = counts(source);
      const total =
        section === 'all' ? Object.values(counted).reduce((sum, n) => sum + n, 0) : counted[section];
      const found = total > offset ? rows(source, section, { offset, limit }) : [];
      return { rows: found.map(toQueueRow), total, counts: counted };
    },
  };
}

function sourceFor(plan: SearchPlan | undefined): Source {
  const source: Source = {
    with: '',
    customers: 'customers c',
    customerWhere: [],
    customerParams: {},
    draftWhere: [DRAFTS_IN_QUEUE],
    draftParams: {},
  };
  if (!plan) return source;
  if (plan.fragments !== undefined) {
    source.with = `WITH m AS MATERIALIZED (
      SELECT rowid AS seq FROM customer_search WHERE customer_search MATCH :fragments)`;
    source.customerParams.fragments = plan.fragments;
  } else if (plan.prefix) {
    source.with = `WITH m AS MATERIALIZED (
      SELECT seq FROM customers WHERE name COLLATE NOCASE >= :from AND name COLLATE NOCASE < :to
      UNION SELECT seq FROM customers WHERE email COLLATE NOCASE >= :from AND email COLLATE NOCASE < :to)`;
    source.customerParams.from = plan.prefix.from;
    source.customerParams.to = plan.prefix.to;
  }
  source.customers = 'm CROSS JOIN customers c ON c.seq = m.seq';
  source.customerWhere = plan.customerPatterns.map((pattern, i) => {
    source.customerParams[`c${i}`] = pattern;
    return nameOrEmailLike('c', `:c${i}`);
  });
  source.draftWhere.push(
    ...plan.draftPatterns.map((pattern, i) => {
      source.draftParams[`d${i}`] = pattern;
      return nameOrEmailLike('d', `:d${i}`);
    }),
  );
  return source;
}

/** Customers whose notes match join those whose name or e-mail do (a few ids: an IN list). */
function withNoted(source: Source, noted: string[]): Source {
  if (noted.length === 0 || !source.with) return source;
  const ids = 'SELECT value FROM json_each(:noted)';
  const patterns = source.customerWhere.length ? `(${source.customerWhere.join(' AND ')})` : null;
  return {
    ...source,
    with: `${source.with.replace(/\)$/, '')} UNION SELECT seq FROM customers WHERE id IN (${ids}))`,
    customerWhere: patterns ? [`(${patterns} OR c.id IN (${ids}))`] : [],
    customerParams: { ...source.customerParams, noted: JSON.stringify(noted) },
  };
}

function nameOrEmailLike(table: 'c' | 'd', param: string): string {
  return `(${table}.name LIKE ${param} ESCAPE '\\' OR ${table}.email LIKE ${param} ESCAPE '\\')`;
}

function where(conditions: string[]): string {
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

function toQueueRow(row: RowRecord): QueueRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    section: row.section,
    statusSince: row.status_since,
    gone: row.gone === 1,
    note: row.note,
  };
}
