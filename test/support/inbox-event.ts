import type { InboxEvent } from '#main/data/journal/index.ts';

/** An event about `customerId` as the webhook inbox records it, created at `created`. */
export function inboxEvent(
  id: string,
  { customerId = 'c-1', created = '2026-03-01T10:00:00.000Z', processed = false } = {},
): InboxEvent {
  return {
    id,
    topic: 'customer_verified',
    resourceId: customerId,
    customerId,
    created,
    signatureVerified: true,
    processed,
  };
}
