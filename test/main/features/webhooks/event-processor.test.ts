import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StatusNotice } from '#contract/webhooks.ts';
import {
  type EventInbox,
  type SqliteJournal as Journal,
  type Observation,
  openJournal,
} from '#main/data/journal/index.ts';
import { createEventProcessor, type EventProcessor } from '#main/features/webhooks/event-processor.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { TeamConnectionError } from '#main/team/store/connection-error.ts';
import { until } from '#test/support/poll.ts';
import { reconcilerFrom } from './helpers.ts';

const customer = (id: string, status: string) => ({
  id,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `${id}@example.com`,
  type: 'personal',
  status,
  created: '2026-03-01T08:00:00.000Z',
  _links: { self: { href: `https://api.service.test/customers/${id}` } },
});

/** After recording: one refresh per customer, trusting the service's current status whatever the order. */
describe('event processor', () => {
  let dir: string;
  let journal: Journal;
  let processor: EventProcessor;
  let writer: EventInbox;
  let statusOnService: string;
  let offline: boolean;
  const refreshes: Array<{ id: string; observation: Observation }> = [];
  const notices: StatusNotice[] = [];
  const logLines: string[] = [];

  beforeEach(async () => {
    logLines.length = 0;
    dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-processor-'));
    journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
    statusOnService = 'document';
    offline = false;
    refreshes.length = 0;
    notices.length = 0;
    writer = journal.openInbox();
    const reconciler = reconcilerFrom(journal, async (id, observation) => {
      refreshes.push({ id, observation });
      if (offline) throw new Error('offline');
      return (await journal.customers.upsert(customer(id, statusOnService), observation)).customer;
    });
    processor = createEventProcessor({
      journal,
      reconciler,
      writer,
      notify: (notice) => notices.push(notice),
      log: createLogger((line) => logLines.push(line)),
      retryDelayMs: 60_000,
    });
  });
  afterEach(async () => {
    await processor.close();
    await writer.close();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const record = async (id: string, topic: string, created: string, customerId: string | null = 'c-1') =>
    (
      await journal.events.record({
        id,
        topic,
        resourceId: customerId ?? 'x',
        customerId,
        created,
        signatureVerified: true,
      })
    ).event;

  it('serves several events of one customer with one refresh, credited to the newest', async () => {
    const events = [
      await record('e-2', 'customer_verification_document_needed', '2026-03-01T10:02:00.000Z'),
      await record('e-1', 'customer_created', '2026-03-01T10:01:00.000Z'),
      await record('e-3', 'customer_verification_document_uploaded', '2026-03-01T10:03:00.000Z'),
    ];
    processor.enqueue(events);
    await processor.idle();
    expect(refreshes).toEqual([
      { id: 'c-1', observation: { source: 'event', eventId: 'e-3', at: '2026-03-01T10:03:00.000Z' } },
    ]);
    expect(await journal.events.unprocessed()).toEqual([]);
    expect(processor.processed).toBe(3);
  });

  it('moves a customer to kba, deactivated or an unknown status on the real service’s topics, notifying in words', async () => {
    processor.enqueue([await record('e-1', 'customer_created', '2026-03-01T10:01:00.000Z')]);
    await processor.idle();
    const steps = [
      ['customer_kba_verification_needed', 'kba', 'kba', 'Knowledge-based questions needed'],
      ['customer_deactivated', 'deactivated', 'deactivated', 'Customer deactivated'],
      ['customer_reactivated', 'constructor', 'other', 'Status now “constructor”'],
      ['customer_activated', 'unverified', 'unverified', 'Status now “Unverified”'],
    ] as const;
    for (const [i, [topic, status, section, title]] of steps.entries()) {
      statusOnService = status;
      processor.enqueue([await record(`e-${i + 2}`, topic, `2026-03-01T10:0${i + 2}:00.000Z`)]);
      await processor.idle();
      expect(await journal.customers.get('c-1')).toMatchObject({ status, section });
      expect(notices.at(-1)).toMatchObject({ status, title });
    }
    expect(await journal.events.unprocessed()).toEqual([]);
  });

  it('leaves events unprocessed while the service cannot be reached, and finishes them later', async () => {
    offline = true;
    processor.enqueue([await record('e-1', 'customer_created', '2026-03-01T10:01:00.000Z')]);
    await processor.idle();
    expect((await journal.events.unprocessed()).map((e) => e.id)).toEqual(['e-1']);
    offline = false;
    processor.resumeUnprocessed();
    await processor.idle();
    expect(await journal.events.unprocessed()).toEqual([]);
  });

  it('a refresh whose first read fails (the team store away) is logged and tried again later, nothing left unhandled', async () => {
    const unhandled: unknown[] = [];
    const hear = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', hear);
    const away = vi
      .spyOn(journal.customers, 'get')
      .mockRejectedValue(
        new TeamConnectionError('unreachable', 'The team store at db.example:5432 could not be reached.'),
      );
    // Tried again soon, on its own timer: the test waits for what it does, never for a time.
    const retrying = createEventProcessor({
      journal,
      reconciler: reconcilerFrom(
        journal,
        async (id, observation) =>
          (await journal.customers.upsert(customer(id, 'document'), observation)).customer,
      ),
      writer,
      notify: () => undefined,
      log: createLogger((line) => logLines.push(line)),
      retryDelayMs: 5,
    });
    try {
      retrying.enqueue([await record('e-1', 'customer_created', '2026-03-01T10:01:00.000Z')]);
      await until(() => logLines.length > 0, 'the failed refresh to be logged');
      expect(JSON.parse(logLines[0]!)).toMatchObject({
        level: 'warn',
        msg: 'webhook event not processed yet',
        error: 'TeamConnectionError: The team store at db.example:5432 could not be reached.',
      });
      expect((await journal.events.unprocessed()).map((e) => e.id)).toEqual(['e-1']);

      away.mockRestore();
      await until(
        async () => (await journal.events.unprocessed()).length === 0,
        'the event processed by a retry',
      );
      expect(unhandled).toEqual([]);
    } finally {
      await retrying.close();
      away.mockRestore();
      process.off('unhandledRejection', hear);
    }
  });

  it('notifies a change of status of a known customer, not its first sighting', async () => {
    processor.enqueue([await record('e-1', 'customer_created', '2026-03-01T10:01:00.000Z')]);
    await processor.idle();
    expect(notices).toEqual([]);
    // A late event of an earlier state arrives after the customer moved on: the GET tells the truth.
    statusOnService = 'verified';
    processor.enqueue([
      await record('e-0', 'customer_verification_document_needed', '2026-03-01T10:00:30.000Z'),
    ]);
    await processor.idle();
    expect(notices).toEqual([
      { customerId: 'c-1', status: 'verified', title: 'Customer verified', body: 'Ada Lovelace' },
    ]);
    expect((await journal.customers.get('c-1'))?.status).toBe('verified');
  });

  it('only records topics it does not know, and events naming no customer', async () => {
    processor.enqueue([
      await record('e-1', 'customer_funding_source_added', '2026-03-01T10:01:00.000Z'),
      await record('e-2', 'customer_verified', '2026-03-01T10:01:00.000Z', null),
    ]);
    await processor.idle();
    expect(refreshes).toEqual([]);
    expect(await journal.events.unprocessed()).toEqual([]);
  });
});
