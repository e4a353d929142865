import pg from 'pg';
import { expect, test } from 'vitest';
import { freshDatabase } from './team-db.ts';

test('each test gets its own empty database in the throwaway cluster, over TCP with a password', async () => {
  const [a, b] = await Promise.all([freshDatabase(), freshDatabase()]);
  expect(a).not.toBe(b);
  const client = new pg.Client({ connectionString: a });
  await client.connect();
  try {
    const { rows } = await client.query<{ tables: string }>(
      `SELECT count(*) AS tables FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(rows[0]?.tables).toBe('0');
    expect(new URL(a).hostname).toBe('127.0.0.1');
  } finally {
    await client.end();
  }
});
