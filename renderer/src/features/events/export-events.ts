import type { EventWindowInput } from '../../../../contract/webhooks.ts';
import { downloadFile } from '../../ui/download.ts';

type EventFilter = Pick<EventWindowInput, 'topic' | 'customerId'>;

/** Hands the exported log (JSON Lines) to the reviewer as a download. */
export function downloadEvents(jsonl: string, filter: EventFilter): void {
  downloadFile({ fileName: fileName(filter), mimeType: 'application/jsonl', content: jsonl });
}

/** e.g. `vetted-events-customer_verified-2025-06-01.jsonl`: what was exported, and when. */
function fileName({ topic, customerId }: EventFilter): string {
  const parts = ['vetted-events', topic, customerId, new Date().toISOString().slice(0, 10)];
  return `${parts
    .filter(Boolean)
    .join('-')
    .replace(/[^\w.-]+/g, '_')}.jsonl`;
}
