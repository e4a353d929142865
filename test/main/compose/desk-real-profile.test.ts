import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftView } from '#contract/drafts.ts';
import type { ServiceStatus } from '#contract/settings.ts';
import { LOG_FILE_NAME } from '#main/ground/log/log-file.ts';
import { startSandbox } from '#sandbox/index.ts';
import {
  createOnService,
  type DeskHarness,
  everyFile,
  removeDir,
  startDesk,
} from '#test/support/desk/desk-harness.ts';
import { customersWithEmail, setFaults, validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';

/** The whole desk on the built-in sandbox's `real` profile: 429s without Retry-After, addresses on GET. */

// Distinctive values: finding one in a file or a log line means it was written in plaintext.
const ADDRESS = { address1: '9313 Quillwort Terrace', address2: 'Unit Periwinkle-77', city: 'Marrowby Fen' };

const fileNames = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

async function submitted(h: DeskHarness, form: ReturnType<typeof validForm>): Promise<string> {
  const { id } = await h.call('drafts.create');
  await h.call('drafts.save', { id, form });
  return id;
}

const untilCreated = (h: DeskHarness, id: string): Promise<DraftView> =>
  until(
    async () => {
      const draft = await h.call('drafts.get', { id });
      return draft.state === 'created' && draft;
    },
    `draft ${id} created`,
    45_000,
  );

describe('desk on the real profile', () => {
  let h: DeskHarness;

  beforeAll(async () => {
    h = await startDesk(
      undefined,
      (options) => startSandbox({ ...options, profile: 'real', reviewDelayMs: 60_000 }),
      // The gate's first back-off is 30 s in use; a test waits a fraction of a second for it.
      { rateLimitBackOff: { firstBackOffMs: 200, maxBackOffMs: 400 } },
    );
    await until(async () => (await h.call('service.status')).state === 'online', 'online');
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it('a burst of 429s without Retry-After loses no draft and duplicates none', async () => {
    const sandbox = h.desk.connection().sandbox!;
    const client = h.desk.connection().client();
    expect(sandbox.profile).toBe('real');
    // Customers already in the queue, for the reconcile to ask about during the burst.
    for (const name of ['retry', 'document', 'kba']) {
      const id = await createOnService(h, name, `known.${name}.${Date.now()}@example.com`);
      await h.call('customers.add', { ref: id });
    }
    const forms = Array.from({ length: 6 }, () => validForm());
    const ids = [];
    for (const form of forms) ids.push(await submitted(h, form));
    h.events.length = 0;

    // Every request answers 429 (no Retry-After on this profile) until 40 of them have (more than the client's own retries absorb).
    await setFaults(sandbox, client, { rate: 1, kinds: ['429'], count: 40 });
    const result = await h.call('drafts.submit', { ids });
    expect(result.queued).toEqual(ids);
    // The reconcile meets the closed gate: refused in words, or done once it opens; neither loses a row.
    await h.call('customers.reconcile').catch((error: unknown) => {
      expect(error).toMatchObject({ code: 'RateLimited' });
    });

    const drafts = await Promise.all(ids.map((id) => untilCreated(h, id)));
    for (const [i, form] of forms.entries()) {
      const onService = await customersWithEmail(client, form.email!);
      expect(onService, `${form.email} created exactly once`).toHaveLength(1);
      expect(drafts[i]!.customerId).toBe(onService[0]!.id);
    }

    const states = h.events
      .filter((e) => e.event === 'service.status')
      .map((e) => e.payload as ServiceStatus);
    const limited = states.findIndex((s) => s.state === 'rate-limited');
    expect(limited, 'the status bar said rate limited').toBeGreaterThanOrEqual(0);
    expect(states[limited]!.retryAt).toEqual(expect.any(String));
    expect(states[limited]!.detail).toMatch(/rate limited/i);
    expect(
      states.slice(limited).map((s) => s.state),
      'and back',
    ).toContain('online');
    expect((await h.call('service.status')).state).toBe('online');
    // Each in the queue once: a customer whose fetch after its create met the closed gate is fetched
    // once the service answers again, not only at the next start.
    await until(async () => {
      const queue = await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 100 });
      return forms.every((form) => queue.rows.filter((row) => row.email === form.email).length === 1);
    }, 'every created customer in the queue, once');
  });

  it('no address value is on disk in plaintext, nor in a log line, after a round trip', async () => {
    const form = validForm({ ...ADDRESS, firstName: 'retry' });
    const id = await submitted(h, form);
    await h.call('drafts.submit', { ids: [id] });
    const { customerId } = await untilCreated(h, id);
    // The real profile sends the address back on GET: the journal now holds the service's copy too.
    await h.call('customers.reconcile');
    const detail = await h.call('customers.get', { id: customerId! });
    expect(detail.reported?.map((field) => field.label)).toEqual(
      expect.arrayContaining(['Address line 1', 'Address line 2', 'City']),
    );
    const revealed = await h.call('customers.reveal', { id: customerId!, reason: 'checking the address' });
    const reported = Object.fromEntries(revealed.reported.map(({ field, value }) => [field, value]));
    expect(reported).toMatchObject(ADDRESS);

    const values = Object.values(ADDRESS);
    const leaks = (texts: string[]) => values.filter((value) => texts.some((text) => text.includes(value)));
    // What is looked through: the journal, its WAL, the webhook inbox log and the log file among them.
    expect(fileNames(h.dataDir)).toEqual(
      expect.arrayContaining(['journal.db', 'journal.db-wal', 'journal.db.inbox', LOG_FILE_NAME]),
    );
    // While open (the journal's -wal holds the latest writes), and once closed and checkpointed.
    expect(leaks(everyFile(h.dataDir).map((bytes) => bytes.toString('latin1')))).toEqual([]);
    expect(leaks(h.logLines)).toEqual([]);
    expect(h.logLines.length).toBeGreaterThan(0);
    const dataDir = h.dataDir;
    await h.close();
    const files = everyFile(dataDir);
    expect(files.length).toBeGreaterThan(2);
    expect(leaks(files.map((bytes) => bytes.toString('latin1')))).toEqual([]);
    h = await startDesk(dataDir, (options) => startSandbox({ ...options, profile: 'real' }));
  });
});
