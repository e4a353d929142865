// The interfaces of drafts of new customers and of their outbox entries (the Idempotency-Key of each).
import type { CustomerInput } from '#contract/customer-rules.ts';
import type { DraftState } from '#contract/drafts.ts';

/** A draft as listed: no personal data beyond the name and e-mail the queue shows. */
export interface DraftSummary {
  id: string;
  created: string;
  updated: string;
  state: DraftState;
  name: string;
  email: string;
  customerId: string | null;
  /** Field errors from the service, by JSON pointer ("/email"). */
  fieldErrors: Record<string, string>;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
}

export interface Draft extends DraftSummary {
  /** The form as the reviewer filled it in; stored encrypted as a whole. */
  form: CustomerInput;
}

/** What the outbox changes on a draft; absent keys stay as they are. */
export interface DraftPatch {
  state?: DraftState;
  customerId?: string | null;
  fieldErrors?: Record<string, string>;
  attempts?: number;
  nextAttemptAt?: string | null;
  lastError?: string | null;
}

export interface DraftsRepository {
  insert(draft: { form: CustomerInput; state?: DraftState }): Promise<Draft>;
  /** Throws `JournalError` if its form does not decrypt. */
  get(id: string): Promise<Draft | undefined>;
  /** Without decrypting the form. */
  summary(id: string): Promise<DraftSummary | undefined>;
  /** Oldest first. */
  list(): Promise<DraftSummary[]>;
  /** Replaces the form (and the name and e-mail the queue shows); returns the new `updated`, or undefined. */
  saveForm(id: string, form: CustomerInput): Promise<string | undefined>;
  /** A state change moves `updated` (the queue's "waiting since"); a rescheduled retry does not. */
  update(id: string, patch: DraftPatch): Promise<void>;
  /** Deletes the draft and its outbox entry: its personal data goes with it. */
  remove(id: string): Promise<boolean>;
  /** Queued drafts whose next attempt is due at `now`, never tried first, then longest waiting. */
  due(now: string, limit: number): Promise<string[]>;
  /** Every queued draft, in the order `due` gives them once due (the outbox keeps them in memory). */
  queued(): Promise<DraftSummary[]>;
  /** The earliest retry scheduled after `now`. */
  nextAttemptAfter(now: string): Promise<string | null>;
  /** Every queued draft may be sent now (the service is reachable again). */
  clearBackoff(): Promise<void>;
  /** Drafts left `sending` by a process that stopped go back to `queued`. */
  requeueSending(): Promise<void>;
  countByState(): Promise<Record<DraftState, number>>;
  /** The draft that created (or was linked to) a customer. */
  byCustomer(customerId: string): Promise<Draft | undefined>;
  /** Created drafts whose customer the journal does not hold yet (Vetted stopped before fetching it). */
  createdWithoutCustomer(): Promise<{ id: string; customerId: string }[]>;
}

export interface OutboxEntry {
  draftId: string;
  idempotencyKey: string;
  keyCreatedAt: string;
  /** Requests answered (or failed) with this key. */
  attempts: number;
  /** A request with this key may have been processed without Vetted learning the answer. */
  maybeCreated: boolean;
  /** The existing customer a `Duplicate` e-mail rejection named. */
  duplicateOf: string | null;
}

export interface OutboxRepository {
  /** The draft's Idempotency-Key: created and stored on the first call, the same one ever after. */
  ensureKey(draftId: string): Promise<OutboxEntry>;
  /**
   * A fresh key for a draft whose requests were all answered without creating anything (rejected, or
   * refused before processing): its corrected form is a new request, and the old key would replay the old answer.
   */
  rotateKey(draftId: string): Promise<OutboxEntry>;
  /**
   * Queueing a draft: a fresh key (`rotateKey`), unless it holds one that may have created the customer,
   * which is kept. One statement: submitting a thousand drafts stays one short transaction. Returns the
   * entry as it now stands.
   */
  issueKey(draftId: string): Promise<OutboxEntry>;
  get(draftId: string): Promise<OutboxEntry | undefined>;
  list(): Promise<OutboxEntry[]>;
  /** Records the end of one request with the key: whether it may have been processed unseen, and any duplicate. */
  recordAttempt(
    draftId: string,
    outcome: { maybeCreated: boolean; duplicateOf?: string | null },
  ): Promise<void>;
  /** Sets maybeCreated without counting an attempt (e.g. the service said it holds no such customer). */
  setMaybeCreated(draftId: string, maybeCreated: boolean): Promise<void>;
  /** After a restart: any queued draft's request may have left before the process stopped. */
  assumeQueuedSent(): Promise<void>;
}
