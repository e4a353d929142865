import type { EventInbox, Journal } from '#main/data/journal/index.ts';
import type { Handlers } from '#main/ground/serve.ts';
import { namesOf, toEventRow } from './ingest.ts';

type EventLogChannel = 'events.window' | 'events.export' | 'webhooks.securityLog';

/**
 * The event log and the security log, read from the journal. Marks and refusals are written lazily
 * (see EventInbox.markProcessed), so each read first waits for what is on its way: a reviewer sees
 * what happened a moment ago.
 */
export function eventLogHandlers(
  journal: Journal,
  writer: Pick<EventInbox, 'flush'>,
): Pick<Handlers, EventLogChannel> {
  return {
    async 'events.window'({ topic, customerId, offset, limit }) {
      await writer.flush();
      const { events, total } = await journal.events.window({ topic, customerId }, { offset, limit });
      const name = await namesOf(journal, events);
      return {
        rows: events.map((event) => toEventRow(event, name)),
        total,
        topics: await journal.events.topics(),
      };
    },
    async 'events.export'({ topic, customerId }) {
      await writer.flush();
      const events = await journal.events.matching({ topic, customerId });
      const name = await namesOf(journal, events);
      return {
        jsonl: events.map((event) => `${JSON.stringify(toEventRow(event, name))}\n`).join(''),
        count: events.length,
      };
    },
    async 'webhooks.securityLog'({ limit }) {
      await writer.flush();
      return {
        rows: (await journal.rejections.list({ limit })).map(({ seq: _, ...rejection }) => rejection),
        total: await journal.rejections.count(),
      };
    },
  };
}
