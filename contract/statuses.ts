/**
 * A customer's status in words, what the reviewer can do about it, and which actions the service
 * offers. Pure: main decides and refuses with it, the renderer shows it, so both say the same.
 * The interface document knows four statuses; today's real service adds `unverified`, `kba` and
 * `deactivated`, and may add more: an unknown status is shown by its own name and allows nothing.
 */

interface StatusInfo {
  /** The status in plain words. */
  name: string;
  /** What the reviewer can do, as a sentence. */
  guidance: string;
}

const STATUSES: Record<string, StatusInfo> = {
  verified: {
    name: 'Verified',
    guidance: 'The service verified this customer. There is nothing left to do.',
  },
  retry: {
    name: 'Needs retry',
    guidance:
      'The service could not verify the details given. You can send them again, corrected and with the full SSN, once (Retry verification).',
  },
  document: {
    name: 'Needs document',
    guidance:
      'The service asks for an identity document. Upload a photo of the customer’s passport, driver’s license or state ID card.',
  },
  kba: {
    name: 'Knowledge-based questions',
    guidance:
      'The customer must answer knowledge-based questions in the service’s own flow. There is nothing for you to submit: the status changes once they have answered.',
  },
  unverified: {
    name: 'Unverified',
    guidance:
      'The customer was created with basic details only and has not been asked to verify. There is nothing for you to submit until the service asks for verification.',
  },
  suspended: {
    name: 'Suspended',
    guidance:
      'The service suspended this customer. Nothing more can be sent for verification; contact the service’s support if this looks wrong.',
  },
  deactivated: {
    name: 'Deactivated',
    guidance: 'The customer is deactivated. Read-only: no action can be taken on it.',
  },
};

/**
 * Where a case ends: the service decided (verified) or nothing more can be sent (suspended, deactivated). The
 * Team screen counts a case closed when its status history reaches one of these (contract/team-overview.ts).
 */
export const TERMINAL_STATUSES = ['verified', 'suspended', 'deactivated'] as const;

const own = (status: string): StatusInfo | undefined =>
  Object.hasOwn(STATUSES, status) ? STATUSES[status] : undefined;

/** The status in plain words; an unknown one as the service named it. */
export function statusName(status: string): string {
  return own(status)?.name ?? status;
}

/** What the reviewer can do about a customer in this status. */
export function statusGuidance(status: string, pendingDocuments = 0): string {
  if (status === 'document' && pendingDocuments > 0) {
    return 'A document is waiting for the service’s review. You can upload another if it asks for more; otherwise wait for the review.';
  }
  return (
    own(status)?.guidance ??
    `Vetted does not know the status “${status}”. It is shown as the service reported it; nothing can be sent from here until the service says more.`
  );
}

// ---- Actions ---------------------------------------------------------------------------------------

/** Whether the reviewer can take an action, and why not in words. */
export type ActionState = { allowed: true; reason: null } | { allowed: false; reason: string };

export interface AvailableActions {
  retry: ActionState;
  upload: ActionState;
}

/** The link relations by which the service offers each action (and asks the customer for answers). */
export const ACTION_RELATIONS = {
  retry: ['retry-verification'],
  upload: ['verify-with-document', 'document-form'],
  kba: ['verify-with-kba'],
} as const;

const ALL_ACTION_RELATIONS: readonly string[] = Object.values(ACTION_RELATIONS).flat();

export const ACTION_REASONS = {
  retryByStatus: 'Only a customer in “retry” can be resubmitted.',
  uploadByStatus: 'Documents can be uploaded only while the service asks for one.',
  retryNotOffered: 'The service does not offer a retry for this customer right now.',
  uploadNotOffered: 'The service is not asking this customer for a document right now.',
} as const;

/**
 * Whether the customer's links say which actions the service offers. The interface document gives
 * the same links (`send` among them) whatever the status, so they say nothing; today's service gives
 * action links by status and withholds `send` from a customer who is not verified. No links at all (a
 * journal row from before links were kept) says nothing either: the status rules decide alone.
 */
export function linksOfferActions(relations: readonly string[] | null): boolean {
  if (!relations || relations.length === 0) return false;
  return relations.some((rel) => ALL_ACTION_RELATIONS.includes(rel)) || !relations.includes('send');
}

const state = (reason: string | null): ActionState =>
  reason === null ? { allowed: true, reason } : { allowed: false, reason };

/** Statuses where nothing is the reviewer's to send: their own reason beats the generic one. */
const NOTHING_TO_SEND: Record<string, string> = {
  kba: 'The customer answers knowledge-based questions in the service’s own flow; there is nothing to send from here.',
  deactivated: 'The customer is deactivated: it is read-only.',
  suspended: 'The service suspended this customer: nothing more can be sent for verification.',
};

const byStatus = (status: string, generic: string) =>
  Object.hasOwn(NOTHING_TO_SEND, status) ? (NOTHING_TO_SEND[status] as string) : generic;

/**
 * The actions on a customer, from its status and the link relations the service gave with it (null:
 * not known). The status must allow an action (the service refuses it otherwise) and, where the links
 * speak, the service must offer it too; the reason names whichever says no first.
 */
export function availableActions(status: string, relations: readonly string[] | null): AvailableActions {
  const speaks = linksOfferActions(relations);
  const offered = (rels: readonly string[]) => !speaks || rels.some((rel) => relations?.includes(rel));
  return {
    retry: state(
      status !== 'retry'
        ? byStatus(status, ACTION_REASONS.retryByStatus)
        : offered(ACTION_RELATIONS.retry)
          ? null
          : ACTION_REASONS.retryNotOffered,
    ),
    upload: state(
      status !== 'document'
        ? byStatus(status, ACTION_REASONS.uploadByStatus)
        : offered(ACTION_RELATIONS.upload)
          ? null
          : ACTION_REASONS.uploadNotOffered,
    ),
  };
}
