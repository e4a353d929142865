// Team store migration 11 (#29): a replicated row announces itself on the changes channel at the commit, with
// the row (or, too large, its table and number); a rewrite that keeps its change number announces nothing.
import pg from 'pg';
import { expect, test } from 'vitest';
import { CHANGE_FEED, FEED_PAYLOAD_MAX } from '#main/team/store/migrations/11-change-feed.ts';
import { CHANGES_CHANNEL } from '#main/team/store/sql.ts';
import { until } from '#test/support/poll.ts';
import { applyMigration, storeAt, versionBefore } from './at-version.ts';

const CUSTOMER = `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed,
  changed_at, profile) VALUES ($1, $2, 'document', 'document', now(), now(), now(), now(), $3)`;

test('rows announce themselves at the commit, in order; a too-large row only its number; same number, nothing', async () => {
  const client = await storeAt(versionBefore(CHANGE_FEED.version));
  await client.query(CUSTOMER, ['c-before', 1, 'sealed']);
  await applyMigration(client, CHANGE_FEED.version);

  const heard: Array<Record<string, unknown>> = [];
  const listener = new pg.Client({
    host: client.host,
    port: client.port,
    user: client.user,
    database: client.database,
    password: client.password ?? undefined,
  });
  await listener.connect();
  try {
    listener.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL) heard.push(JSON.parse(message.payload ?? 'null'));
    });
    await listener.query(`LISTEN ${CHANGES_CHANNEL}`);

    await client.query('BEGIN');
    await client.query(CUSTOMER, ['c-1', 2, 'sealed profile']);
    await client.query(
      `INSERT INTO vetted.status_history (seq, customer_id, status, at, source) VALUES (3, 'c-1', 'document', now(), 'event')`,
    );
    // Nothing is sent before the commit.
    await client.query('COMMIT');
    // Same number: a reseal, say. Then a new number, rewritten again under it in the same transaction (a claim
    // expired and taken in one call): announced once, as the transaction left it.
    await client.query(`UPDATE vetted.customers SET profile = 'resealed' WHERE id = 'c-1'`);
    await client.query('BEGIN');
    await client.query(`UPDATE vetted.customers SET seq = 4, status = 'verified' WHERE id = 'c-1'`);
    await client.query(`UPDATE vetted.customers SET status = 'retry' WHERE id = 'c-1'`);
    await client.query('COMMIT');
    // Then a row too large to ride a notification.
    await client.query(CUSTOMER, ['c-big', 5, 'x'.repeat(FEED_PAYLOAD_MAX)]);

    await until(() => heard.length >= 4, 'four announcements');
    expect(heard).toMatchObject([
      { table: 'customers', row: { id: 'c-1', seq: 2, profile: 'sealed profile', status: 'document' } },
      { table: 'status_history', row: { seq: 3, customer_id: 'c-1', source: 'event' } },
      { table: 'customers', row: { id: 'c-1', seq: 4, status: 'retry', profile: 'resealed' } },
      { table: 'customers', seq: 5 },
    ]);
    expect(heard[3]).not.toHaveProperty('row');
  } finally {
    await listener.end();
  }
});
