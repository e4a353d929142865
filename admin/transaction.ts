import type pg from 'pg';

/**
 * A transaction on one client (the administrator's single connection), begun with `begin` (its isolation,
 * read only…). Throwing rolls it back.
 */
export async function inTransactionOn<T>(
  client: pg.ClientBase,
  work: () => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  await client.query(begin);
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
