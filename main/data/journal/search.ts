// How a queue search term is answered from indexes. Words of 3+ characters go to the trigram index
// (substring match, anywhere in the name or e-mail); a term with only shorter words matches the start
// of a name or an e-mail through the b-tree indexes (a trigram index cannot look up 1–2 characters).

/** The smallest fragment the trigram tokenizer indexes. */
const TRIGRAM = 3;
/** Above every character: `prefix + MAX_CHAR` bounds the range of strings that start with `prefix`. */
const MAX_CHAR = '\u{10FFFF}';

export interface SearchPlan {
  /** FTS5 query for `customer_search`: every long word must occur in the name or the e-mail. */
  fragments?: string;
  /** Range of names or e-mails (NOCASE) that start with the term, when no word is long enough. */
  prefix?: { from: string; to: string };
  /** LIKE patterns (escaped with `\`) the name or e-mail must also match: the words the index skipped. */
  customerPatterns: string[];
  /** Every condition as LIKE patterns, for the drafts table: small enough to scan. */
  draftPatterns: string[];
}

/** `undefined` when the term is blank: no search. */
export function planSearch(term: string): SearchPlan | undefined {
  const words = term.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  const long = words.filter((word) => [...word].length >= TRIGRAM);
  const short = words.filter((word) => [...word].length < TRIGRAM);
  if (long.length === 0) {
    const prefix = words.join(' ');
    return {
      prefix: { from: prefix, to: prefix + MAX_CHAR },
      customerPatterns: [],
      draftPatterns: [`${escapeLike(prefix)}%`],
    };
  }
  return {
    fragments: long.map(ftsPhrase).join(' AND '),
    customerPatterns: short.map(containsPattern),
    draftPatterns: words.map(containsPattern),
  };
}

// A quoted FTS5 string is taken literally (no operators, no column filters); quotes are doubled.
function ftsPhrase(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

function containsPattern(word: string): string {
  return `%${escapeLike(word)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** SQL of a search's matches as a CTE `m(seq)`, taking at most `cap` from each index it reads. */
export function matchSet(plan: SearchPlan, cap: number): { with: string; params: Record<string, string> } {
  if (plan.fragments !== undefined) {
    return {
      with: `WITH m AS MATERIALIZED (
        SELECT rowid AS seq FROM customer_search WHERE customer_search MATCH :fragments LIMIT ${cap})`,
      params: { fragments: plan.fragments },
    };
  }
  const range = (column: string) =>
    `SELECT seq FROM (SELECT seq FROM customers
      WHERE ${column} COLLATE NOCASE >= :from AND ${column} COLLATE NOCASE < :to LIMIT ${cap})`;
  const prefix = plan.prefix ?? { from: '', to: MAX_CHAR };
  return {
    with: `WITH m AS MATERIALIZED (${range('name')} UNION ${range('email')})`,
    params: { from: prefix.from, to: prefix.to },
  };
}

export function nameOrEmailLike(table: 'c' | 'd', param: string): string {
  return `(${table}.name LIKE ${param} ESCAPE '\\' OR ${table}.email LIKE ${param} ESCAPE '\\')`;
}
