import type { EventWindowInput } from '../../../../contract/webhooks.ts';

type EventFilter = Pick<EventWindowInput, 'topic' | 'customerId'>;

const REVOKE_AFTER_MS = 60_000;

/**
 * Hands the exported log (JSON Lines) to the browser as a download. A Blob URL keeps the file in this
 * page (the CSP allows `blob:`), in browser mode and under Electron alike.
 */
export function downloadEvents(jsonl: string, filter: EventFilter): void {
  const url = URL.createObjectURL(new Blob([jsonl], { type: 'application/jsonl' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName(filter);
  link.click();
  // The browser reads the Blob after the click returns; revoking at once can cut the download short.
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** e.g. `vetted-events-customer_verified-2025-06-01.jsonl`: what was exported, and when. */
function fileName({ topic, customerId }: EventFilter): string {
  const parts = ['vetted-events', topic, customerId, new Date().toISOString().slice(0, 10)];
  return `${parts
    .filter(Boolean)
    .join('-')
    .replace(/[^\w.-]+/g, '_')}.jsonl`;
}
