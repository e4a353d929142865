/**
 * An event as the store keeps it (service-facts.md §6). Apart from events.ts because recording an
 * event queues its webhooks, and webhooks.ts, which queues them, reads the event.
 */
export type Topic =
  | 'customer_created'
  | 'customer_verified'
  | 'customer_reverification_needed'
  | 'customer_verification_document_needed'
  | 'customer_verification_document_uploaded'
  | 'customer_verification_document_approved'
  | 'customer_verification_document_failed'
  | 'customer_suspended'
  // The real profile's statuses (real-service.md).
  | 'customer_kba_verification_needed'
  | 'customer_deactivated';

export interface EventRow extends Record<string, unknown> {
  id: string;
  topic: Topic;
  resource_type: 'customer' | 'document';
  resource_id: string;
  customer_id: string;
  created_ms: number;
}
