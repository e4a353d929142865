/**
 * The statements a workload runs on the team store, from pg_stat_statements (Debian's PostgreSQL ships it; the
 * cluster must load it at start: `STATEMENT_SETTINGS`). `track = all` also counts the statements run inside
 * functions and triggers (the change feed's `announce_row`): those are listed, marked nested, but only the
 * top-level ones are summed (a nested statement's time is inside its caller's).
 */
import type pg from 'pg';

/** The cluster settings pg_stat_statements needs (given to startPgCluster). */
export const STATEMENT_SETTINGS: Record<string, string> = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
  'pg_stat_statements.max': '5000',
};

export interface StatementRow {
  /** Who ran it: `desk`, `hub` (by login), or the login. */
  who: string;
  toplevel: boolean;
  query: string;
  calls: number;
  totalMs: number;
  rows: number;
}

/** Creates the extension (as a superuser) in the team's database, where its view is read. */
export async function installStatements(admin: pg.ClientBase): Promise<void> {
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
}

export async function resetStatements(admin: pg.ClientBase): Promise<void> {
  await admin.query('SELECT pg_stat_statements_reset()');
}

/** What the team's logins (`team(login)`) ran since the last reset, by who, statement and level. */
export async function readStatements(
  admin: pg.ClientBase,
  team: (login: string) => boolean,
): Promise<StatementRow[]> {
  const { rows } = await admin.query<{
    login: string;
    toplevel: boolean;
    query: string;
    calls: string;
    total: number;
    rows: string;
  }>(
    `SELECT r.rolname AS login, s.toplevel, s.query, s.calls, s.total_exec_time AS total, s.rows
       FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
      WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  const merged = new Map<string, StatementRow>();
  for (const row of rows) {
    if (!team(row.login)) continue;
    const who = row.login.startsWith('hub_') ? 'hub' : row.login.startsWith('desk_') ? 'desk' : row.login;
    const query = row.query.replace(/\s+/g, ' ').trim();
    const key = `${who}\u0000${row.toplevel}\u0000${query}`;
    const entry = merged.get(key) ?? { who, toplevel: row.toplevel, query, calls: 0, totalMs: 0, rows: 0 };
    entry.calls += Number(row.calls);
    entry.totalMs += row.total;
    entry.rows += Number(row.rows);
    merged.set(key, entry);
  }
  return [...merged.values()].sort((a, b) => b.totalMs - a.totalMs);
}

/** Top-level statements' calls and time, in all. */
export function statementTotals(rows: readonly StatementRow[]): { calls: number; totalMs: number } {
  const top = rows.filter((row) => row.toplevel);
  return {
    calls: top.reduce((sum, row) => sum + row.calls, 0),
    totalMs: top.reduce((sum, row) => sum + row.totalMs, 0),
  };
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/**
 * A Markdown table of the statements, per delivery: calls, total and mean time, rows; the query cut to
 * `width` characters. Statements under `minCalls` a delivery and `minMs` a delivery are left out (counted in
 * the last line).
 */
export function statementTable(
  rows: readonly StatementRow[],
  deliveries: number,
  { width = 110, minCalls = 0.05, minMs = 0.005 } = {},
): string {
  const lines = [
    '| who | statement | calls / delivery | ms / delivery | mean ms | rows / delivery |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  let left = 0;
  for (const row of rows) {
    const calls = row.calls / deliveries;
    const ms = row.totalMs / deliveries;
    if (calls < minCalls && ms < minMs) {
      left++;
      continue;
    }
    const text = row.query.length > width ? `${row.query.slice(0, width - 1)}…` : row.query;
    lines.push(
      `| ${row.who}${row.toplevel ? '' : ' (nested)'} | \`${cell(text)}\` | ${calls.toFixed(2)} | ${ms.toFixed(3)} | ${(
        row.totalMs / Math.max(1, row.calls)
      ).toFixed(3)} | ${(row.rows / deliveries).toFixed(2)} |`,
    );
  }
  if (left > 0)
    lines.push(`| | (${left} more, each under ${minCalls} calls and ${minMs} ms a delivery) | | | | |`);
  return lines.join('\n');
}
