// The hub's real core (not a fake): on a service that is not the built-in sandbox, taking the listener role
// subscribes the tunnel's public URL, and what the service then delivers lands in the team store.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { startHubCore } from '#main/compose/hub.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { hubCli } from '#main/team/hub/cli.ts';
import { hubTeam, openHubConfig } from '#main/team/hub/hub-config.ts';
import { MARKER } from '#main/team/journal/live-feed.ts';
import { CHANGES_CHANNEL } from '#main/team/store/sql.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';
import { freePort } from '#test/main/features/webhooks/helpers.ts';
import { quickClient } from '#test/support/desk/drafts.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore } from '#test/support/team/team-store.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hubCommand(args: string[], input: string): Promise<void> {
  const output = { text: '' };
  const status = await hubCli(args, {
    stdin: Readable.from([input]),
    out: (text) => {
      output.text += text;
    },
    err: (text) => {
      output.text += text;
    },
    untilStopped: () => new Promise(() => undefined),
  });
  expect(status, output.text).toBe(0);
}

/** A hub's data directory joined to `store` and pointed at `sandbox`, and its core (not leading yet). */
async function hubOn(store: Awaited<ReturnType<typeof makeTeamStore>>, sandbox: RunningSandbox) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub-core-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  await hubCommand(['join', '--data-dir', dir], `${await await store.code()}\n${store.password}\n`);
  await hubCommand(
    // `=`: a generated client id may begin with '-', which would read as an option.
    ['service', '--data-dir', dir, '--base-url', sandbox.baseUrl, `--client-id=${sandbox.clientId}`],
    `${sandbox.clientSecret}\n`,
  );
  const log = createLogger(() => undefined);
  const config = openHubConfig(dir, log);
  return { config, log };
}

/** A team store, a sandbox as its service, a client of it, the store's admin client, a public URL. */
async function teamOnSandbox() {
  const url = await freshDatabase();
  const store = await makeTeamStore(url);
  const sandbox = await startSandbox({ port: 0 });
  cleanups.push(() => sandbox.close());
  const client = quickClient(sandbox);
  cleanups.push(() => client.close());
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  cleanups.push(() => db.end());
  // Loopback stands in for the tunnel (or load balancer) every hub of the team stands behind.
  const port = await freePort();
  return { url, store, sandbox, client, db, port, publicUrl: `http://127.0.0.1:${port}/webhooks` };
}

test('leading on a service of its own, the hub subscribes its public URL and records what is delivered', async () => {
  const { url, store, sandbox, client, db, port, publicUrl } = await teamOnSandbox();
  const { config, log } = await hubOn(store, sandbox);
  const core = await startHubCore({ config, team: hubTeam(config), log, port, publicUrl });
  cleanups.push(() => core.close());
  expect((await core.startListener()).url).toBe(publicUrl);

  const subscriptions = await client.subscriptions.list();
  expect(subscriptions.map((subscription) => subscription.url)).toEqual([publicUrl]);

  // Everything the store announces on the changes channel, in commit order.
  const heard: string[] = [];
  const listen = new pg.Client({ connectionString: url });
  await listen.connect();
  cleanups.push(() => listen.end());
  listen.on('notification', (message) => heard.push(message.payload ?? ''));
  await listen.query(`LISTEN ${CHANGES_CHANNEL}`);

  // A customer created on the service by anyone: its webhook reaches the hub, and the store has both.
  const created = await client.customers.create(samplePerson('Hub', 'Heard', 'hub.heard@example.com'), {
    idempotencyKey: crypto.randomUUID(),
  });
  await until(
    async () => {
      await sandbox.advanceClock(0);
      const events = await db.query('SELECT 1 FROM vetted.events WHERE customer_id = $1', [created.id]);
      const customers = await db.query('SELECT 1 FROM vetted.customers WHERE id = $1', [created.id]);
      return events.rowCount! > 0 && customers.rowCount! > 0;
    },
    'the delivered event and its customer in the team store',
    20_000,
  );
  // Processed and marked: a hub's refresh does not wait for its own replica, so it sends no marker through
  // the store (one each desk's session would hear). Ours, sent last, arrives after anything sent before it.
  await until(
    async () =>
      (
        await db.query('SELECT 1 FROM vetted.events WHERE customer_id = $1 AND processed_at IS NOT NULL', [
          created.id,
        ])
      ).rowCount! > 0,
    'the event processed',
    20_000,
  );
  await db.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, 'test:last']);
  await until(() => heard.includes('test:last'), 'our own notification back');
  expect(heard.some((payload) => payload.includes(created.id))).toBe(true);
  expect(heard.filter((payload) => payload.startsWith(MARKER))).toEqual([]);

  // Taking the role again (after a stand-by) subscribes nothing twice.
  await core.stopListener();
  await core.startListener();
  expect(await client.subscriptions.list()).toHaveLength(1);
});

test('a hub taking the role over verifies what the service signs for the subscription another hub made', async () => {
  const { store, sandbox, client, db, port, publicUrl } = await teamOnSandbox();
  const first = await hubOn(store, sandbox);
  const a = await startHubCore({ ...first, team: hubTeam(first.config), port, publicUrl });
  cleanups.push(() => a.close());
  await a.startListener();
  await a.stopListener();

  const second = await hubOn(store, sandbox);
  const b = await startHubCore({ ...second, team: hubTeam(second.config), port, publicUrl });
  cleanups.push(() => b.close());
  await b.startListener();
  // The first hub's subscription is the team's: none is made twice, and its secret is in the store, sealed.
  expect((await client.subscriptions.list()).map((subscription) => subscription.url)).toEqual([publicUrl]);
  const kept = await db.query<{ secret: string }>('SELECT secret FROM vetted.webhook_secrets');
  expect(kept.rows).toEqual([{ secret: expect.stringMatching(/^v1\./) }]);
  expect(second.config.vault.names().filter((name) => name.startsWith('webhookSecret:'))).toEqual([]);

  const created = await client.customers.create(samplePerson('Hub', 'Over', 'hub.over@example.com'), {
    idempotencyKey: crypto.randomUUID(),
  });
  await until(
    async () => {
      await sandbox.advanceClock(0);
      const { rows } = await db.query<{ verified: boolean }>(
        'SELECT signature_verified AS verified FROM vetted.events WHERE customer_id = $1',
        [created.id],
      );
      return rows.length > 0 && rows.every((row) => row.verified);
    },
    'the delivery, signed for the first hub’s subscription, recorded by the second',
    20_000,
  );
  const refused = await db.query('SELECT reason FROM vetted.webhook_rejections');
  expect(refused.rows).toEqual([]);
});

test('a hub that kept a subscription’s secret in its own vault moves it into the team store', async () => {
  const { store, sandbox, client, db, port, publicUrl } = await teamOnSandbox();
  const hub = await hubOn(store, sandbox);
  // As a hub of an earlier Vetted left it: the subscription on the service, its secret in the hub's vault.
  const secret = crypto.randomUUID();
  const { id } = await client.subscriptions.create(publicUrl, secret, {
    idempotencyKey: crypto.randomUUID(),
  });
  hub.config.vault.set(`webhookSecret:${id}`, secret);

  const core = await startHubCore({ ...hub, team: hubTeam(hub.config), port, publicUrl });
  cleanups.push(() => core.close());
  await core.startListener();
  expect(hub.config.vault.has(`webhookSecret:${id}`)).toBe(false);
  expect(await client.subscriptions.list()).toHaveLength(1);
  const { rows } = await db.query<{ id: string; secret: string }>(
    'SELECT subscription_id AS id, secret FROM vetted.webhook_secrets',
  );
  expect(rows).toEqual([{ id, secret: expect.not.stringContaining(secret) }]);
});
