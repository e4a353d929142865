// Team store migration 3: the webhooks' security log pruned by its retention rule, not by reviewers.
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { KEPT_REJECTIONS } from '#main/data/journal/rejections.ts';
import { KEPT_BY_MIGRATION_3 } from '#main/team/store/migrations/03-rejections-pruned.ts';
import { applyMigration, reviewerOf, storeAt } from './at-version.ts';

describe('team store migration 3: the security log pruned by its retention rule, not by reviewers', () => {
  const KEPT = KEPT_BY_MIGRATION_3;
  /** Version 2 with a full security log and a few more: what a reviewer's DELETE used to prune. */
  async function version2WithRejections(): Promise<pg.Client> {
    const client = await storeAt(2);
    await client.query(
      `INSERT INTO vetted.webhook_rejections (at, remote_address, status, reason)
       SELECT now(), '10.0.0.1', 401, 'signature-missing ' || n FROM generate_series(1, $1) AS n`,
      [KEPT + 5],
    );
    return client;
  }

  test('keeps the local journal’s retention: the newest KEPT_REJECTIONS', () => {
    expect(KEPT).toBe(KEPT_REJECTIONS);
  });

  test('adds a definer function that keeps only the newest entries, and only the administrator owns it', async () => {
    const client = await version2WithRejections();
    await applyMigration(client, 3);

    const { rows } = await client.query<{ definer: boolean; owner: string; me: string }>(
      `SELECT prosecdef AS definer, proowner::regrole::text AS owner, session_user AS me FROM pg_proc
        WHERE oid = 'vetted.prune_webhook_rejections()'::regprocedure`,
    );
    expect(rows).toEqual([{ definer: true, owner: rows[0]?.me, me: rows[0]?.me }]);
    await client.query('SELECT vetted.prune_webhook_rejections()');
    const left = await client.query<{ n: number; oldest: string }>(
      'SELECT count(*)::int AS n, min(reason) FILTER (WHERE seq = (SELECT min(seq) FROM vetted.webhook_rejections)) AS oldest FROM vetted.webhook_rejections',
    );
    expect(left.rows).toEqual([{ n: KEPT, oldest: 'signature-missing 6' }]);
  });

  test('a reviewer granted EXECUTE (and no DELETE, as the grants now are) prunes through it', async () => {
    const client = await version2WithRejections();
    await applyMigration(client, 3);
    const reviewer = await reviewerOf(client, 'dora', [
      'INSERT ON vetted.webhook_rejections',
      'EXECUTE ON FUNCTION vetted.prune_webhook_rejections()',
    ]);

    await expect(reviewer.query('DELETE FROM vetted.webhook_rejections')).rejects.toMatchObject({
      code: '42501',
      message: 'permission denied for table webhook_rejections',
    });
    await reviewer.query('SELECT vetted.prune_webhook_rejections()');
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM vetted.webhook_rejections',
    );
    expect(rows).toEqual([{ n: KEPT }]);
  });
});
