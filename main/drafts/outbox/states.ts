// The per-draft state machine of the outbox, as the journal records it:
//
//   draft / rejected / attention ──submit──▶ queued ──sent──▶ created
//                                              │ ▲
//        failure that may pass (backoff) ──────┘ └── try again (same key, when it may have created the customer)
//                                              ├──▶ rejected   (the service refused the form; nothing created)
//                                              └──▶ attention  (a person must look; maybe created)
//
// "sending" is never written: it lives in memory, and after a restart every queued draft counts as maybe sent.
import type { DraftState } from '../../../contract/drafts.ts';
import type { Journal, OutboxEntry } from '../../journal/index.ts';
import type { Failure } from './classify.ts';

/** The states from which a draft may change: nothing can have been created from it. */
export function isEditable(state: DraftState, entry: OutboxEntry | undefined): boolean {
  if (state === 'draft' || state === 'rejected') return true;
  return state === 'attention' && !entry?.maybeCreated;
}

/** How a draft came to be its customer's: our own create, found after the key was forgotten, or linked by hand. */
export type LinkKind = 'created' | 'found' | 'linked';
const LINK_AUDIT: Record<LinkKind, string> = {
  created: 'customer.create',
  found: 'customer.create.found',
  linked: 'draft.linkDuplicate',
};

const CLEARED = { fieldErrors: {}, lastError: null } as const;

export const transitions = {
  /** Whatever Vetted was doing when it last stopped, any queued draft may have been sent. */
  recover(journal: Journal): void {
    journal.drafts.requeueSending();
    journal.outbox.assumeQueuedSent();
  },

  /**
   * Submitted: queued with its key. A key that may have created the customer is kept: only its replay can
   * tell. Otherwise every request with it was answered without creating anything, and the (corrected) form
   * is a new request.
   */
  queue(journal: Journal, id: string): void {
    journal.outbox.issueKey(id);
    journal.drafts.update(id, { state: 'queued', ...CLEARED, attempts: 0, nextAttemptAt: null });
  },

  /** "Try again" on a draft that may have created its customer: the same key, the same form. */
  requeue(journal: Journal, id: string): void {
    journal.drafts.update(id, { state: 'queued', lastError: null, attempts: 0, nextAttemptAt: null });
  },

  /** No customer has the draft's e-mail: the earlier sends created nothing, and the key is forgotten. */
  nothingCreated(journal: Journal, id: string): void {
    journal.outbox.setMaybeCreated(id, false);
  },

  created(journal: Journal, id: string, customerId: string, how: LinkKind): void {
    const patch = { state: 'created', customerId, ...CLEARED } as const;
    journal.drafts.update(id, how === 'linked' ? patch : { ...patch, nextAttemptAt: null });
    if (how !== 'linked') journal.outbox.recordAttempt(id, { maybeCreated: false });
    journal.audit.record({ action: LINK_AUDIT[how], customerId, outcome: 'ok', detail: `draft ${id}` });
  },

  /** A failure that may pass: queued again, due after its backoff. */
  resendLater(journal: Journal, id: string, attempts: number, nextAttemptAt: string, problem: string): void {
    journal.outbox.recordAttempt(id, { maybeCreated: true });
    journal.drafts.update(id, { attempts, nextAttemptAt, lastError: problem });
  },

  /** The form was refused, or a person must look; `uncertain`: an earlier send may have created it. */
  stopped(
    journal: Journal,
    id: string,
    failure: Exclude<Failure, { kind: 'retry' }>,
    uncertain: boolean,
  ): void {
    if (failure.kind === 'rejected') {
      journal.outbox.recordAttempt(id, { maybeCreated: false, duplicateOf: failure.duplicateOf });
      journal.drafts.update(id, {
        state: 'rejected',
        fieldErrors: failure.fields,
        lastError: failure.problem,
        nextAttemptAt: null,
      });
    } else {
      journal.outbox.recordAttempt(id, { maybeCreated: uncertain || failure.processed });
      journal.drafts.update(id, { state: 'attention', lastError: failure.problem, nextAttemptAt: null });
    }
    journal.audit.record({ action: 'customer.create', outcome: failure.kind, detail: `draft ${id}` });
  },
};
