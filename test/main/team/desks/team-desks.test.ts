// Two desks and a hub on one sandbox, end to end (#18 "Tests and CI"): a webhook delivered once moves the row on
// both desks within a second; the one-time retry pre-fills from the submitted draft on either desk (#28);
// audit rows carry the reviewer's own login; the database dump holds no personal data in plaintext. That a reviewer cannot UPDATE or DELETE an audit row is test/admin/admin-grants.test.ts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect, test } from 'vitest';
import type { QueueRow } from '#contract/queue.ts';
import { DEFAULT_COALESCE_MS } from '#main/features/webhooks/event-processor.ts';
import type { DeskHarness } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { teamSuite } from './team-suite.ts';

const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';
const run = promisify(execFile);

const team = teamSuite();

const FORM = validForm({ firstName: 'retry', lastName: 'Quennell', email: 'q.quennell@example.com' });
let customerId = '';

const rowsOf = async (desk: DeskHarness): Promise<QueueRow[]> =>
  (await desk.call('queue.window', { section: 'all', search: '', offset: 0, limit: 50 })).rows;

test('a draft submitted on one desk is created once and shows on both desks', async () => {
  const { id } = await team.alice.call('drafts.create');
  await team.alice.call('drafts.save', { id, form: FORM });
  expect((await team.alice.call('drafts.submit', { ids: [id] })).queued).toEqual([id]);
  for (const desk of [team.alice, team.bob]) {
    const row = await until(
      async () => (await rowsOf(desk)).find((r) => r.name === 'retry Quennell'),
      'the created customer on the desk',
      30_000,
    );
    expect(row.status).toBe('retry');
    customerId = row.id;
  }
}, 60_000);

test('the one-time retry form is pre-filled from the submitted draft on the submitting desk and on another reviewer’s, without the SSN', async () => {
  expect(customerId).not.toBe('');
  for (const desk of [team.alice, team.bob]) {
    const prefill = await desk.call('retry.prefill', { customerId });
    expect(prefill).toEqual({ customerId, fromDraft: true, form: { ...FORM, tin: '' } });
  }
  const db = new pg.Client({ connectionString: team.rig.adminUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ actor: string; outcome: string }>(
      `SELECT actor, outcome FROM vetted.audit_log WHERE action = 'retry.open' AND customer_id = $1 ORDER BY seq`,
      [customerId],
    );
    expect(rows).toEqual([
      { actor: team.rig.reviewers.alice.login, outcome: 'prefilled' },
      { actor: team.rig.reviewers.bob.login, outcome: 'prefilled' },
    ]);
  } finally {
    await db.end();
  }
});

test('a webhook delivered once moves the row on both desks within 1 s', async () => {
  expect(customerId).not.toBe('');
  const moved = (desk: DeskHarness) =>
    desk.events.find(
      (e) =>
        e.event === 'customer.updated' &&
        (e.payload as QueueRow).id === customerId &&
        (e.payload as QueueRow).status === 'verified',
    );
  const seen = new Map<DeskHarness, number>();
  for (const desk of [team.alice, team.bob]) {
    desk.desk.events.subscribe((event, payload) => {
      const row = payload as QueueRow;
      if (
        event === 'customer.updated' &&
        row.id === customerId &&
        row.status === 'verified' &&
        !seen.has(desk)
      ) {
        seen.set(desk, Date.now());
      }
    });
  }
  // The hub refreshes a customer at most once a second (DEFAULT_COALESCE_MS, events meanwhile share that GET):
  // the change is made once the window its creation's webhooks (created, reverification needed) opened has closed, so the figure is the
  // path from one delivery to the desks, not the coalescing wait.
  const db = new pg.Client({ connectionString: team.rig.adminUrl });
  await db.connect();
  try {
    const created = await until(async () => {
      const { rows } = await db.query<{ pending: string; last: Date | null; both: boolean }>(
        `SELECT count(*) FILTER (WHERE processed_at IS NULL) AS pending, max(processed_at) AS last,
                bool_or(topic = 'customer_reverification_needed') AS both
           FROM vetted.events WHERE customer_id = $1`,
        [customerId],
      );
      return rows[0]?.both && rows[0].pending === '0' ? rows[0].last : null;
    }, 'the hub to process the webhooks of the customer’s creation');
    await until(() => Date.now() > created.getTime() + DEFAULT_COALESCE_MS, 'the refresh window to close');
    // Someone else retries the customer on the service (not through a desk): the service's one webhook to the
    // hub is the only way the desks learn of it. Timed from the hub's listener receipt of that webhook.
    await team.rig.retryOnService(customerId, 'Quennell', FORM.email ?? '');
    await until(() => moved(team.alice) && moved(team.bob), 'both desks to move the row', 10_000);
    const { rows } = await db.query<{ received: Date }>(
      `SELECT received_at AS received FROM vetted.events WHERE customer_id = $1 AND topic = 'customer_verified'`,
      [customerId],
    );
    expect(rows).toHaveLength(1);
    const received = rows[0]!.received.getTime();
    const latencies = [team.alice, team.bob].map((desk) => (seen.get(desk) ?? Number.NaN) - received);
    // The figures are for the coordinator's note on #18.
    // biome-ignore lint/suspicious/noConsole: a measurement to read in the run's output.
    console.log(`hub receipt → desk customer.updated: alice ${latencies[0]} ms, bob ${latencies[1]} ms`);
    // Each desk learned of the change from that webhook, after the hub received it, and within the second
    // team mode promises (#18); it takes about 20 ms here, so the bound holds on a loaded machine too.
    for (const ms of latencies) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(1000);
    }
  } finally {
    await db.end();
  }
}, 30_000);

test('audit rows written by alice’s desk carry alice’s login', async () => {
  await team.alice.call('customers.reveal', { id: customerId, reason: 'checking the address' });
  const db = new pg.Client({ connectionString: team.rig.adminUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ actor: string }>(
      `SELECT actor FROM vetted.audit_log WHERE action = 'personal.reveal' AND customer_id = $1`,
      [customerId],
    );
    expect(rows).toEqual([{ actor: team.rig.reviewers.alice.login }]);
  } finally {
    await db.end();
  }
});

test('the team database’s dump holds none of the customer’s personal data in plaintext', async () => {
  const { stdout } = await run(PG_DUMP, ['--no-owner', team.rig.adminUrl], { maxBuffer: 64 * 1024 * 1024 });
  expect(stdout).toContain('vetted.customers');
  for (const value of ['Quennell', FORM.email, FORM.address1, FORM.dateOfBirth, '123-45-6789']) {
    expect(stdout, value).not.toContain(value);
  }
  // The last four alone: a ciphertext's base64 may hold four digits in a row, never standing on their own.
  expect(stdout).not.toMatch(/(?<![A-Za-z0-9_-])6789(?![A-Za-z0-9_-])/);
});
