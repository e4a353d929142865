import { z } from 'zod';

/**
 * Every action the audit log records, with the words a reviewer reads for it (the Audit screen, a case's
 * timeline, the exports' `what`). One table: an action written anywhere in Vetted is a key here, so the
 * type checker refuses an action without words. The team store's own functions write some (claims, team
 * settings, four eyes' steps; test/unit/audit-actions.test.ts checks those against this table too).
 */
export const AUDIT_ACTION_WORDS = {
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
  'team.join': 'Joined a team',
  'team.password': 'Team database password changed',
  'team.leave': 'Left the team',
  'team.bringHistory': 'This desk’s history brought into the team',
  'team.history': 'This desk’s journal named',
  'team.keyRotated': 'Team key rotated',
  'team.keyResealed': 'Team data resealed under the new key',
  'audit.export': 'Audit log exported',
  'audit.chain': 'Audit chain begun',
  'audit.key': 'Audit seal key begun',
  'retry.open': 'Retry form opened',
  'settings.change': 'Settings changed',
  'webhook.subscribe': 'Webhook subscription created',
  'webhook.pause': 'Webhook subscription paused',
  'webhook.resume': 'Webhook subscription resumed',
  'webhook.delete': 'Webhook subscription deleted',
  'desk.lockArmed': 'Idle lock armed',
  'desk.locked': 'Desk locked',
  'desk.unlocked': 'Desk unlocked',
  'desk.unlockFailed': 'Unlock refused',
} as const satisfies Record<string, string>;

/** An action Vetted records. */
export type AuditAction = keyof typeof AUDIT_ACTION_WORDS;

export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_WORDS) as readonly AuditAction[];

/**
 * Actions only a lead (or the administrator) may record. The team store refuses any other login's entry with
 * one of them (its `audit_log_lead_only` trigger, written by team store migration 7 with this list as it stood;
 * test/team/roles-sql.test.ts checks the store's list is this one).
 */
export const LEAD_ONLY_AUDIT_ACTIONS = [
  'claim.reassign',
  'claim.takeOver',
  'team.setting',
  'team.setRole',
  'queue.exportNames',
  'document.imagePurge',
] as const satisfies readonly AuditAction[];

/** An action the team store's own functions ask a desk to append (they are this Vetted's: same schema). */
export const AuditActionSchema = z.enum(AUDIT_ACTIONS as [AuditAction, ...AuditAction[]]);

export function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_ACTION_WORDS, action);
}

/** An action in words; one this Vetted does not know (a newer desk's, in a team) reads as it is recorded. */
export function actionWords(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTION_WORDS[action] : action;
}
