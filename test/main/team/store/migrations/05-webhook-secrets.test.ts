// Team store migration 5: the webhook subscriptions' secrets, sealed, for every hub.
import { describe, expect, test } from 'vitest';
import { applyMigration, storeAt } from './at-version.ts';

describe("team store migration 5: the webhook subscriptions' secrets, sealed, for every hub", () => {
  test('adds the table, leaves the rows before it as they were, and stamps who keeps a secret', async () => {
    const client = await storeAt(4);
    await client.query(`INSERT INTO vetted.events (id, topic, resource_id, created, received_at, signature_verified)
      VALUES ('e-1', 'customer_created', 'c-1', now(), now(), true)`);
    await applyMigration(client, 5);

    expect((await client.query('SELECT id FROM vetted.events')).rows).toEqual([{ id: 'e-1' }]);
    await client.query(
      `INSERT INTO vetted.webhook_secrets (subscription_id, secret, created_by) VALUES ('s-1', 'v1.sealed', 'eve')`,
    );
    const { rows } = await client.query(
      'SELECT subscription_id, secret, created_by = session_user AS stamped FROM vetted.webhook_secrets',
    );
    expect(rows).toEqual([{ subscription_id: 's-1', secret: 'v1.sealed', stamped: true }]);
    await expect(
      client.query(`INSERT INTO vetted.webhook_secrets (subscription_id, secret) VALUES ('s-1', 'again')`),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
