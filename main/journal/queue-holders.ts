// The queue's work by who holds it (team mode's claims, copied by the replica): for each holder, and for the
// cases nobody holds, how many wait in each section with an ageing target and how many of those are overdue.
// One pass over those sections' customers, grouped; solo mode has no claims and gets one row, for nobody.
import { AGEING_SECTIONS, type AgeingSection } from '../../contract/queue-view.ts';
import type { Params, Statements } from './db.ts';
import { overdueCondition } from './queue-filters.ts';
import type { DueBefore, HolderCounts } from './repositories/queue.ts';

const zeros = () => Object.fromEntries(AGEING_SECTIONS.map((s) => [s, 0])) as Record<AgeingSection, number>;

export function holderCounts(sql: Statements, due: DueBefore): HolderCounts[] {
  const params: Params = {};
  const overdue = overdueCondition(due, params);
  const sections = AGEING_SECTIONS.map((section) => `'${section}'`).join(', ');
  const byHolder = new Map<string | null, HolderCounts>();
  const entry = (holder: string | null) => {
    let found = byHolder.get(holder);
    if (!found) {
      found = { holder, waiting: zeros(), overdue: zeros(), held: 0 };
      byHolder.set(holder, found);
    }
    return found;
  };
  entry(null);
  for (const row of sql.all<{ holder: string | null; section: AgeingSection; waiting: number; late: number }>(
    `SELECT k.holder AS holder, c.section AS section, count(*) AS waiting,
       sum(CASE WHEN ${overdue} THEN 1 ELSE 0 END) AS late
     FROM customers c LEFT JOIN claims k ON k.customer_id = c.id AND k.holder IS NOT NULL
     WHERE c.gone_at IS NULL AND c.section IN (${sections})
     GROUP BY k.holder, c.section`,
    params,
  )) {
    const counts = entry(row.holder);
    counts.waiting[row.section] = row.waiting;
    counts.overdue[row.section] = row.late;
  }
  for (const row of sql.all<{ holder: string; n: number }>(
    'SELECT holder, count(*) AS n FROM claims WHERE holder IS NOT NULL GROUP BY holder',
  )) {
    entry(row.holder).held = row.n;
  }
  return [...byHolder.values()].sort((a, b) =>
    a.holder === null ? -1 : b.holder === null ? 1 : a.holder.localeCompare(b.holder),
  );
}
