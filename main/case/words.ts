// The audit log's actions in words a reviewer reads (topics and statuses: contract/event-topics.ts, statuses.ts).

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
  'queue.exportNames': 'Queue exported with names in full',
  'claim.take': 'Case taken',
  'claim.release': 'Case released',
  'claim.expire': 'Claim expired (idle)',
  'claim.reassign': 'Case reassigned',
  'claim.takeOver': 'Case taken over',
  'team.setting': 'Team setting changed',
  'approval.request': 'Waiting for approval (four eyes)',
  'approval.approve': 'Approved (four eyes)',
  'approval.reject': 'Rejected (four eyes)',
  'approval.cancel': 'Approval request withdrawn',
  'approval.expire': 'Approval request expired',
  'approval.sent': 'Approved action sent',
  'team.setRole': 'Reviewer’s role changed',
  'team.markHub': 'Login marked as a hub',
  'audit.export': 'Audit log exported',
  'audit.chain': 'Audit chain begun',
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
