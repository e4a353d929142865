import type pg from 'pg';

/** A transaction on one client (the administrator's single connection). Throwing rolls it back. */
export async function inTransactionOn<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
