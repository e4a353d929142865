// The audit log's actions and the service's webhook topics in words a reviewer reads.

const ACTIONS: Record<string, string> = {
  'customer.add': 'Customer added by id',
  'customer.create': 'Customer created',
  'customer.create.found': 'Customer found after an uncertain create',
  'customer.retry': 'Verification retry submitted',
  'customers.import': 'Customers imported',
  'draft.discard': 'Draft discarded',
  'draft.linkDuplicate': 'Draft linked to an existing customer',
  'document.upload': 'Document uploaded',
  'document.imagePurge': 'Stored document image removed',
  'note.add': 'Note written',
  'personal.reveal': 'Personal data revealed',
  'queue.export': 'Queue exported',
  'audit.export': 'Audit log exported',
  'retry.open': 'Retry form opened',
  'settings.change': 'Settings changed',
  'webhook.subscribe': 'Webhook subscription created',
  'webhook.pause': 'Webhook subscription paused',
  'webhook.resume': 'Webhook subscription resumed',
  'webhook.delete': 'Webhook subscription deleted',
};

/** An audit action in words; an action without words yet is shown as it is recorded. */
export function actionWords(action: string): string {
  return ACTIONS[action] ?? action;
}

const TOPICS: Record<string, string> = {
  customer_created: 'Customer created',
  customer_verified: 'Customer verified',
  customer_suspended: 'Customer suspended',
  customer_activated: 'Customer activated',
  customer_deactivated: 'Customer deactivated',
  customer_reverification_needed: 'Verification retry needed',
  customer_verification_document_needed: 'Document needed',
  customer_verification_document_uploaded: 'Document uploaded',
  customer_verification_document_approved: 'Document approved',
  customer_verification_document_failed: 'Document rejected',
};

/** `customer_verification_document_failed` → "Document rejected"; an unknown topic in plain words. */
export function topicWords(topic: string): string {
  const known = TOPICS[topic];
  if (known) return known;
  const words = topic.replace(/[_.-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const STATUSES: Record<string, string> = {
  retry: 'Needs retry',
  document: 'Needs document',
  verified: 'Verified',
  suspended: 'Suspended',
  unverified: 'Unverified',
  deactivated: 'Deactivated',
};

export function statusWords(status: string): string {
  return STATUSES[status] ?? status;
}
