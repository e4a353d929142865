import type { EventRow } from '#contract/webhooks.ts';
import type {
  EventInbox,
  Journal,
  JournalEvent,
  ReceivedEvent,
  RecordedEvents,
} from '#main/data/journal/index.ts';
import { eventSchema, type ServiceEvent } from '#main/data/service/hal.ts';
import type { EventHub } from '#main/ground/event-hub.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { type EventProcessor, needsNoProcessing } from './event-processor.ts';
import { createRecentNames } from './recent-names.ts';

/** What the listener answers for a delivery whose signature checked out. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Events into the journal: durable (committed before anyone is told), recorded once per event id
 * (a redelivery only counts as a duplicate), then handed to the processor.
 */
export interface Ingest {
  /** A delivery whose signature was verified over these very bytes. */
  deliver(body: Buffer): Promise<Answer>;
  /**
   * Events fetched with `GET /events` while catching up; resolves, once they are in the journal, with how
   * many were new.
   */
  recordFetched(events: readonly ServiceEvent[]): Promise<number>;
  /** The inbox's `onRecorded`: events now in the journal go to the processor and the screen. */
  recorded(results: RecordedEvents): void;
}

export function createIngest(options: {
  journal: Journal;
  writer: EventInbox;
  processor: EventProcessor;
  events: EventHub;
  log: Logger;
  /** Whether recorded events are announced as event rows (false: no screen looks, names are not read). */
  announce?: boolean;
}): Ingest & { /** Stops following customers' names. */ close(): void } {
  const { journal, writer, processor, events, log } = options;
  const names = createRecentNames(journal, events);

  /**
   * Records in one savepoint; events with nothing to do are recorded as processed already.
   * Fetched events the journal already has are left alone: a duplicate counts deliveries only.
   */
  const record = (received: readonly ReceivedEvent[], delivered: boolean) =>
    writer.record(
      received.map((event) => ({
        ...event,
        processed: needsNoProcessing({ topic: event.topic, customerId: event.customerId ?? null }),
      })),
      { delivered },
    );

  /**
   * Once in the journal, behind the answers: the new events go to the processor at once (it starts work on
   * the next turn), and the events of a turn are announced together. Whatever goes wrong here, the events
   * are recorded and will be processed after a restart.
   */
  let toAnnounce: JournalEvent[] = [];
  const announceSoon = (results: RecordedEvents) => {
    processor.enqueue(results.filter((result) => !result.duplicate).map((result) => result.event));
    if (options.announce === false) return;
    if (toAnnounce.length === 0) setImmediate(() => void announce());
    for (const { event } of results) toAnnounce.push(event);
  };
  const announce = async () => {
    const recorded = toAnnounce;
    toAnnounce = [];
    try {
      const name = await names.of(recorded);
      for (const event of recorded) events.emit('event.received', toEventRow(event, name));
    } catch (error) {
      log.error('recorded webhook events not announced', describeError(error));
    }
  };

  return {
    close: names.close,
    recorded: announceSoon,
    async deliver(body) {
      const event = parseEvent(body);
      if (!event) {
        // Signed by the service yet unreadable: not an attack, so the main log rather than the security log.
        log.warn('webhook body is not an event', { bytes: body.length });
        return { status: 400, body: { error: 'The body is not an event.' } };
      }
      let results: Array<{ event: JournalEvent; duplicate: boolean }>;
      try {
        results = await record([toReceived(event, true)], true);
      } catch (error) {
        // Not recorded, so not acknowledged: the service delivers it again later.
        log.error('webhook event could not be recorded', describeError(error));
        return { status: 503, body: { error: 'Not recorded; send it again later.' } };
      }
      return { status: 200, body: { received: event.id, duplicate: results[0]?.duplicate === true } };
    },
    async recordFetched(fetched) {
      if (fetched.length === 0) return 0;
      const results = await record(
        fetched.map((event) => toReceived(event, false)),
        false,
      );
      // Catching up waits for them to be in the journal (and handed to the processor), not only durable.
      await writer.flush();
      return results.length;
    },
  };
}

function parseEvent(body: Buffer): ServiceEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = eventSchema.safeParse(json);
  return parsed.success && parsed.data.id.length > 0 ? parsed.data : undefined;
}

function toReceived(event: ServiceEvent, signatureVerified: boolean): ReceivedEvent {
  return {
    id: event.id,
    topic: event.topic,
    resourceId: event.resourceId,
    customerId: customerIdOf(event),
    created: event.created,
    signatureVerified,
  };
}

/** The customer an event is about: its `customer` link, else a `resource` link to a customer. */
export function customerIdOf(event: Pick<ServiceEvent, '_links'>): string | null {
  const links = event._links;
  const href = links.customer?.href ?? links.resource?.href;
  if (!href) return null;
  // One parse of the URL per delivery (this runs before every 200): the id is its last path segment.
  try {
    const match = CUSTOMER_PATH.exec(new URL(href).pathname);
    return match ? decodeURIComponent(match[1] as string) : null;
  } catch {
    return null;
  }
}
const CUSTOMER_PATH = /\/customers\/([^/]+)\/?$/;

/** The names of these events' customers as the journal knows them, for the event log's customer column. */
export async function namesOf(
  journal: Journal,
  events: readonly Pick<JournalEvent, 'customerId'>[],
): Promise<(customerId: string | null) => string | null> {
  const names = new Map<string, string | null>();
  for (const { customerId } of events) {
    if (customerId !== null && !names.has(customerId)) {
      names.set(customerId, (await journal.customers.get(customerId))?.name ?? null);
    }
  }
  return (customerId) => (customerId === null ? null : (names.get(customerId) ?? null));
}

export function toEventRow(
  event: JournalEvent,
  name: (customerId: string | null) => string | null,
): EventRow {
  return {
    id: event.id,
    topic: event.topic,
    customerId: event.customerId,
    customerName: name(event.customerId),
    resourceId: event.resourceId,
    created: event.created,
    receivedAt: event.receivedAt,
    signatureVerified: event.signatureVerified,
    duplicatesSeen: event.duplicatesSeen,
    processed: event.processedAt !== null,
  };
}
