// Team store migration 8 is reserved for four eyes: the placeholder changes nothing but the version.
import { describe, expect, test } from 'vitest';
import { applyMigration, storeAt } from './at-version.ts';

describe('team store migration 8: reserved for four eyes', () => {
  test('moves the version on and leaves the tables as they were', async () => {
    const client = await storeAt(7);
    const tables = `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'vetted'`;
    const before = (await client.query(tables)).rows[0];
    await applyMigration(client, 8);
    expect((await client.query(tables)).rows[0]).toEqual(before);
  });
});
