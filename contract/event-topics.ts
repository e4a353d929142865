/**
 * Webhook topics in the words a reviewer reads. The service names its events by identifier
 * (`customer_verification_document_failed`); every screen that shows one says it this way instead,
 * with the identifier kept for whoever needs it (the event's detail, a tooltip, an export).
 * Covers every topic of service-interface.md §6 and service-facts.md §6; the real service has more,
 * which read through `topicText`'s fallback rather than as raw identifiers.
 */
export const TOPIC_TEXTS: Readonly<Record<string, string>> = {
  customer_created: 'Customer created',
  customer_verified: 'Customer verified',
  customer_reverification_needed: 'Retry needed',
  customer_suspended: 'Customer suspended',
  customer_deactivated: 'Customer deactivated',
  customer_reactivated: 'Customer reactivated',
  customer_verification_document_needed: 'Document needed',
  customer_verification_document_uploaded: 'Document uploaded',
  customer_verification_document_approved: 'Document approved',
  customer_verification_document_failed: 'Document rejected',
};

/**
 * A topic in words, with the reason where one is known ("Document rejected: photo not readable").
 * An unknown topic still reads as words: `customer_funding_source_added` → "Customer funding source
 * added" (service-facts.md §1: an unknown topic is shown, never a crash).
 */
export function topicText(topic: string, reason?: string | null): string {
  const text = TOPIC_TEXTS[topic] ?? readableIdentifier(topic);
  return reason ? `${text}: ${lowerFirst(reason)}` : text;
}

/** `some_topic.name-here` → "Some topic name here"; an empty or symbol-only topic says so. */
function readableIdentifier(topic: string): string {
  const words = topic
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Unnamed event';
}

/** A reason written as a sentence ("The photo could not be read") reads on after the colon. */
function lowerFirst(reason: string): string {
  // Leaves acronyms alone ("ID was not recognised" stays as it is).
  return /^\p{Lu}\p{Ll}/u.test(reason) ? reason.charAt(0).toLowerCase() + reason.slice(1) : reason;
}
