// Team store migration 15 (#38): claim_next's search for the case that has waited longest reads an index of
// the waiting customers, not every customer of the store.
import { describe, expect, test } from 'vitest';
import { WAITING_INDEX } from '#main/team/store/migrations/15-waiting-index.ts';
import { applyMigration, storeAt, versionBefore } from './at-version.ts';

/** claim_next's own search (migration 7), as the function runs it. */
const CANDIDATES = `
  SELECT c.id FROM vetted.customers c LEFT JOIN vetted.claims k ON k.customer_id = c.id
  WHERE c.gone_at IS NULL AND c.section = ANY ($1) AND (k.holder IS NULL OR k.expires_at <= now())
  ORDER BY c.status_since, c.id LIMIT 20`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every scan of a table in the plan, and the index it reads (null: the whole table). */
function scansOf(node: PlanNode): Array<{ relation: string; index: string | null }> {
  const own = node['Relation Name']
    ? [{ relation: node['Relation Name'], index: node['Index Name'] ?? null }]
    : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)];
}

describe('team store migration 15: the cases waiting in a section, by an index', () => {
  test('finds the longest-waiting cases without reading the settled customers', async () => {
    const client = await storeAt(versionBefore(WAITING_INDEX.version));
    // 20,000 settled customers and 30 waiting ones, as a team's store holds them.
    await client.query(
      `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at,
         profile)
       SELECT 'c-' || n, nextval('vetted.change_seq'), s, s, t, t, t, t, 'sealed'
       FROM generate_series(1, 20030) AS n,
         LATERAL (SELECT CASE WHEN n % 700 = 0 THEN 'document' ELSE 'verified' END AS s,
           timestamptz '2026-03-01' + n * interval '1 minute' AS t) v`,
    );
    await applyMigration(client, WAITING_INDEX.version);
    await client.query('ANALYZE vetted.customers');
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${CANDIDATES}`, [['document', 'retry']]);
    const scans = scansOf(rows[0]['QUERY PLAN'][0].Plan);
    expect(scans).toContainEqual({ relation: 'customers', index: 'customers_waiting' });
    expect(scans).not.toContainEqual({ relation: 'customers', index: null });
    const found = await client.query(CANDIDATES, [['document', 'retry']]);
    expect(found.rows.map((row) => row.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `c-${(i + 1) * 700}`),
    );
  });
});
