// A hub records and processes events like a desk, but no screen looks at its event log as they arrive: its
// ingest announces no event rows, so it reads no customer's name from the (team) journal per delivery.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Journal, JournalEvent } from '#main/data/journal/index.ts';
import type { EventProcessor } from '#main/features/webhooks/event-processor.ts';
import { createIngest } from '#main/features/webhooks/ingest.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { createLogger } from '#main/ground/log/logger.ts';

const event: JournalEvent = {
  id: 'e-1',
  topic: 'customer_verified',
  resourceId: 'c-1',
  customerId: 'c-1',
  created: '2026-11-29T10:00:00.000Z',
  receivedAt: '2026-11-29T10:00:01.000Z',
  signatureVerified: true,
  duplicatesSeen: 0,
  processedAt: null,
};

function ingestWith(announce: boolean | undefined) {
  const get = vi.fn(async () => ({ name: 'Ada Lovelace' }));
  const journal = { customers: { get } } as unknown as Journal;
  const enqueue = vi.fn();
  const events = createEventHub();
  const emitted: string[] = [];
  events.subscribe((name) => emitted.push(name));
  const ingest = createIngest({
    journal,
    writer: {} as never,
    processor: { enqueue } as unknown as EventProcessor,
    events,
    log: createLogger(() => undefined),
    ...(announce === undefined ? {} : { announce }),
  });
  return { ingest, get, enqueue, emitted };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('recorded events, with and without a screen', () => {
  it('announces them as event rows with the customer’s name on a desk', async () => {
    vi.useFakeTimers();
    const { ingest, get, enqueue, emitted } = ingestWith(undefined);
    ingest.recorded([{ event, duplicate: false }]);
    expect(enqueue).toHaveBeenCalledWith([event]);
    expect(vi.getTimerCount()).toBe(1);
    await vi.runAllTimersAsync();
    expect(get).toHaveBeenCalledWith('c-1');
    expect(emitted).toEqual(['event.received']);
  });

  it('hands them to the processor and schedules nothing else on a hub (announce: false)', () => {
    vi.useFakeTimers();
    const { ingest, get, enqueue } = ingestWith(false);
    ingest.recorded([{ event, duplicate: false }]);
    expect(enqueue).toHaveBeenCalledWith([event]);
    // Nothing waits to announce them: no name will be read.
    expect(vi.getTimerCount()).toBe(0);
    expect(get).not.toHaveBeenCalled();
  });
});
