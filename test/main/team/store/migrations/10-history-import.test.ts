// Team store migration 10 (#30): what desks bring when they join is keyed by where it came from, once each,
// stamped with the login that brought it; notes written before keep working, a brought one names its desk.
import { expect, test } from 'vitest';
import { HISTORY_IMPORT } from '#main/team/store/migrations/10-history-import.ts';
import { applyMigration, reviewerOf, storeAt, versionBefore } from './at-version.ts';

test('a desk’s item is brought once, by the login that brought it; older notes stay as they were', async () => {
  const client = await storeAt(versionBefore(HISTORY_IMPORT.version));
  await client.query(
    `INSERT INTO vetted.notes (seq, customer_id, at, body) VALUES (1, 'c-1', now(), 'sealed')`,
  );
  await applyMigration(client, HISTORY_IMPORT.version);

  const { rows: before } = await client.query('SELECT seq, brought_from FROM vetted.notes');
  expect(before).toEqual([{ seq: '1', brought_from: null }]);

  const ana = await reviewerOf(client, 'ana', [
    'INSERT ON vetted.brought_from_desks',
    'INSERT ON vetted.notes',
  ]);
  const bring = (localId: string) =>
    ana.query(
      `INSERT INTO vetted.brought_from_desks (desk, kind, local_id, brought_by) VALUES ('desk-1', 'note', $1, 'mallory')
       ON CONFLICT DO NOTHING RETURNING brought_by`,
      [localId],
    );
  expect((await bring('7')).rows).toEqual([{ brought_by: ana.login }]);
  expect((await bring('7')).rowCount).toBe(0);
  expect((await bring('8')).rowCount).toBe(1);
  await expect(
    ana.query(`INSERT INTO vetted.brought_from_desks (desk, kind, local_id) VALUES ('desk-1', 'draft', '1')`),
  ).rejects.toThrow(/check constraint/);

  await ana.query(
    `INSERT INTO vetted.notes (seq, customer_id, at, body, brought_from)
     VALUES (2, 'c-1', '2026-01-02T03:04:05Z', 'sealed', 'desk-1')`,
  );
  const { rows } = await client.query(`SELECT author, brought_from, at FROM vetted.notes WHERE seq = 2`);
  expect(rows).toEqual([{ author: ana.login, brought_from: 'desk-1', at: new Date('2026-01-02T03:04:05Z') }]);
});
