import type { DurableWriter } from '../journal/durable-writer.ts';
import type { Journal } from '../journal/index.ts';
import type { Handlers } from '../serve.ts';
import { nameOf, toEventRow } from './ingest.ts';

type EventLogChannel = 'events.window' | 'events.export' | 'webhooks.securityLog';

/**
 * The event log and the security log, read from the journal. Marks and refusals are written lazily
 * (see DurableWriter.writeSoon), so each read first waits for what is on its way: a reviewer sees
 * what happened a moment ago.
 */
export function eventLogHandlers(journal: Journal, writer: DurableWriter): Pick<Handlers, EventLogChannel> {
  return {
    async 'events.window'({ topic, customerId, offset, limit }) {
      await writer.flush();
      const { events, total } = journal.events.window({ topic, customerId }, { offset, limit });
      const name = nameOf(journal);
      return { rows: events.map((event) => toEventRow(event, name)), total, topics: journal.events.topics() };
    },
    async 'events.export'({ topic, customerId }) {
      await writer.flush();
      const name = nameOf(journal);
      const events = journal.events.matching({ topic, customerId });
      return {
        jsonl: events.map((event) => `${JSON.stringify(toEventRow(event, name))}\n`).join(''),
        count: events.length,
      };
    },
    async 'webhooks.securityLog'({ limit }) {
      await writer.flush();
      return {
        rows: journal.rejections.list({ limit }).map(({ seq: _, ...rejection }) => rejection),
        total: journal.rejections.count(),
      };
    },
  };
}
