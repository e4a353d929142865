import type { ExportFile } from '#contract/case.ts';
import type { EventWindowInput } from '#contract/webhooks.ts';

type EventFilter = Pick<EventWindowInput, 'topic' | 'customerId'>;

/** The exported log (JSON Lines) as a file to hand to the reviewer. */
export function eventsFile({
  jsonl,
  count,
  filter,
}: {
  jsonl: string;
  count: number;
  filter: EventFilter;
}): ExportFile {
  return { fileName: fileName(filter), mimeType: 'application/jsonl', content: jsonl, count };
}

/** e.g. `vetted-events-customer_verified-2025-06-01.jsonl`: what was exported, and when. */
function fileName({ topic, customerId }: EventFilter): string {
  const parts = ['vetted-events', topic, customerId, new Date().toISOString().slice(0, 10)];
  return `${parts
    .filter(Boolean)
    .join('-')
    .replace(/[^\w.-]+/g, '_')}.jsonl`;
}
