// The per-draft state machine of the outbox, as the journal records it:
//
//   draft / rejected / attention ──submit──▶ queued ──sent──▶ created
//                                              │ ▲
//        failure that may pass (backoff) ──────┘ └── try again (same key, when it may have created the customer)
//                                              ├──▶ rejected   (the service refused the form; nothing created)
//                                              └──▶ attention  (a person must look; maybe created)
//
// "sending" is never written: it lives in memory, and after a restart every queued draft counts as maybe sent.

import type { AuditAction } from '#contract/audit-actions.ts';
import type { DraftState } from '#contract/drafts.ts';
import type { JournalRepositories, OutboxEntry } from '#main/data/journal/index.ts';
import type { Failure } from './classify.ts';

/** The states from which a draft may change: nothing can have been created from it. */
export function isEditable(state: DraftState, entry: OutboxEntry | undefined): boolean {
  if (state === 'draft' || state === 'rejected') return true;
  return state === 'attention' && !entry?.maybeCreated;
}

/** How a draft came to be its customer's: our own create, found after the key was forgotten, or linked by hand. */
export type LinkKind = 'created' | 'found' | 'linked';
const LINK_AUDIT: Record<LinkKind, AuditAction> = {
  created: 'customer.create',
  found: 'customer.create.found',
  linked: 'draft.linkDuplicate',
};

const CLEARED = { fieldErrors: {}, lastError: null } as const;

export const transitions = {
  /** Whatever Vetted was doing when it last stopped, any queued draft may have been sent. */
  async recover(journal: JournalRepositories): Promise<void> {
    await journal.drafts.requeueSending();
    await journal.outbox.assumeQueuedSent();
  },

  /**
   * Submitted: queued with its key. A key that may have created the customer is kept: only its replay can
   * tell. Otherwise every request with it was answered without creating anything, and the (corrected) form
   * is a new request.
   */
  async queue(journal: JournalRepositories, id: string): Promise<OutboxEntry> {
    const entry = await journal.outbox.issueKey(id);
    await journal.drafts.update(id, { state: 'queued', ...CLEARED, attempts: 0, nextAttemptAt: null });
    return entry;
  },

  /** "Try again" on a draft that may have created its customer: the same key, the same form. */
  async requeue(journal: JournalRepositories, id: string): Promise<void> {
    await journal.drafts.update(id, { state: 'queued', lastError: null, attempts: 0, nextAttemptAt: null });
  },

  /** No customer has the draft's e-mail: the earlier sends created nothing, and the key is forgotten. */
  async nothingCreated(journal: JournalRepositories, id: string): Promise<void> {
    await journal.outbox.setMaybeCreated(id, false);
  },

  async created(journal: JournalRepositories, id: string, customerId: string, how: LinkKind): Promise<void> {
    const patch = { state: 'created', customerId, ...CLEARED } as const;
    await journal.drafts.update(id, how === 'linked' ? patch : { ...patch, nextAttemptAt: null });
    if (how !== 'linked') await journal.outbox.recordAttempt(id, { maybeCreated: false });
    await journal.audit.record({ action: LINK_AUDIT[how], customerId, outcome: 'ok', detail: `draft ${id}` });
  },

  /** A failure that may pass: queued again, due after its backoff. */
  async resendLater(
    journal: JournalRepositories,
    id: string,
    attempts: number,
    nextAttemptAt: string,
    problem: string,
  ): Promise<void> {
    await journal.outbox.recordAttempt(id, { maybeCreated: true });
    await journal.drafts.update(id, { attempts, nextAttemptAt, lastError: problem });
  },

  /** The form was refused, or a person must look; `uncertain`: an earlier send may have created it. */
  async stopped(
    journal: JournalRepositories,
    id: string,
    failure: Exclude<Failure, { kind: 'retry' }>,
    uncertain: boolean,
  ): Promise<void> {
    if (failure.kind === 'rejected') {
      await journal.outbox.recordAttempt(id, { maybeCreated: false, duplicateOf: failure.duplicateOf });
      await journal.drafts.update(id, {
        state: 'rejected',
        fieldErrors: failure.fields,
        lastError: failure.problem,
        nextAttemptAt: null,
      });
    } else {
      await journal.outbox.recordAttempt(id, { maybeCreated: uncertain || failure.processed });
      await journal.drafts.update(id, {
        state: 'attention',
        lastError: failure.problem,
        nextAttemptAt: null,
      });
    }
    await journal.audit.record({ action: 'customer.create', outcome: failure.kind, detail: `draft ${id}` });
  },
};
