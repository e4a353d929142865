import { z } from 'zod';
import { EventIdSchema } from './service-id.ts';
import { EventRowSchema } from './webhooks.ts';

/**
 * One event opened from the event log: what the journal recorded about its delivery, and the event
 * as the service sends it (the body of its webhook, `GET /events/{id}`), pretty-printed. Events
 * carry no personal data, so the payload may be shown as it is.
 */
export const EventDetailSchema = z.object({
  event: EventRowSchema,
  /** The service names no delivery apart from its event: the event id is what deduplicates deliveries. */
  deliveryId: z.string(),
  /** Why a rejected document was rejected, in words, when the service says; null otherwise. */
  reason: z.string().nullable(),
  /** The event's JSON, indented; null when the service could not be asked (`payloadProblem` says why). */
  payload: z.string().nullable(),
  payloadProblem: z.string().nullable(),
});
export type EventDetail = z.infer<typeof EventDetailSchema>;

export const eventDetailChannels = {
  'events.detail': {
    input: z.strictObject({ id: EventIdSchema }),
    output: EventDetailSchema,
  },
} as const;
