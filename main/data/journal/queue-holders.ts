// The queue's work by who holds it (team mode's claims, copied by the replica): for each holder, and for the
// cases nobody holds, how many open cases wait in each section with an ageing target and how many of those
// are overdue. A section's totals come from its open cases' index (migration 10), the holders' share from
// their claims (a team holds what it works on, a small part of the queue), and nobody's is what is left:
// the cost follows the claims, not the queue. Solo mode has no claims and gets one row, for nobody.
import { AGEING_SECTIONS, type AgeingSection } from '#contract/queue-view.ts';
import type { Statements } from './db.ts';
import type { DueBefore, HolderCounts } from './repositories/queue.ts';

const zeros = () => Object.fromEntries(AGEING_SECTIONS.map((s) => [s, 0])) as Record<AgeingSection, number>;

/** `c.status_since < due` for the section's target; nothing is overdue in a section without one. */
function lateCase(due: DueBefore): { sql: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const each = AGEING_SECTIONS.filter((section) => due[section]).map((section) => {
    params[`due_${section}`] = due[section] as string;
    return `WHEN '${section}' THEN c.status_since < :due_${section}`;
  });
  return { sql: each.length > 0 ? `CASE c.section ${each.join(' ')} ELSE 0 END` : '0', params };
}

export function holderCounts(sql: Statements, due: DueBefore): HolderCounts[] {
  const late = lateCase(due);
  const nobody: HolderCounts = { holder: null, waiting: zeros(), overdue: zeros(), held: 0 };
  for (const section of AGEING_SECTIONS) {
    const open = 'FROM customers c WHERE c.section = :section AND c.gone_at IS NULL';
    nobody.waiting[section] = sql.get<{ n: number }>(`SELECT count(*) AS n ${open}`, { section })?.n ?? 0;
    nobody.overdue[section] = due[section]
      ? (sql.get<{ n: number }>(`SELECT count(*) AS n ${open} AND c.status_since < :due`, {
          section,
          due: due[section],
        })?.n ?? 0)
      : 0;
  }
  // CROSS JOIN: from the claims to their customers, never the other way (SQLite would walk the queue).
  const holders = new Map<string, HolderCounts>();
  const sections = AGEING_SECTIONS.map((section) => `'${section}'`).join(', ');
  for (const row of sql.all<{ holder: string; section: string; open: number; late: number; n: number }>(
    `SELECT k.holder AS holder, c.section AS section, count(*) AS n,
       sum(c.gone_at IS NULL AND c.section IN (${sections})) AS open,
       sum(c.gone_at IS NULL AND ${late.sql}) AS late
     FROM claims k CROSS JOIN customers c ON c.id = k.customer_id
     WHERE k.holder IS NOT NULL GROUP BY k.holder, c.section`,
    late.params,
  )) {
    let counts = holders.get(row.holder);
    if (!counts) {
      counts = { holder: row.holder, waiting: zeros(), overdue: zeros(), held: 0 };
      holders.set(row.holder, counts);
    }
    counts.held += row.n;
    if (!(AGEING_SECTIONS as readonly string[]).includes(row.section)) continue;
    const section = row.section as AgeingSection;
    counts.waiting[section] = row.open;
    counts.overdue[section] = row.late;
    nobody.waiting[section] -= row.open;
    nobody.overdue[section] -= row.late;
  }
  return [nobody, ...[...holders.values()].sort((a, b) => (a.holder ?? '').localeCompare(b.holder ?? ''))];
}
