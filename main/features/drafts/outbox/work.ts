import type { CustomerInput } from '#contract/customer-rules.ts';
import type { Journal, OutboxEntry } from '#main/data/journal/index.ts';
import type { CustomerInput as ServiceCustomerInput } from '#main/data/service/index.ts';
import { customerBody } from '../form.ts';

/** A queued draft as the outbox keeps it in memory: what sending it needs, without reading the journal. */
export interface QueuedDraft {
  id: string;
  attempts: number;
  nextAttemptAt: string | null;
  /** Its key, once read or issued; the journal holds the same (written before any request with it). */
  entry?: OutboxEntry;
}

/**
 * What the outbox has to do, kept in memory: the queued drafts (in the order they are due) and the created
 * drafts whose customer is fetched next. While a draft is queued only the outbox changes it (a queued draft
 * cannot be edited or discarded), so memory and journal agree once loaded; every change is written to the
 * journal by the outbox, which updates this list alongside. It is loaded from the journal at the first use and
 * again on every resume (queued drafts of an earlier run, after the recovery at start).
 */
export function workList(journal: Journal, now: () => Date) {
  /** Insertion order is due order: queued first, those given a backoff keep their place until due. */
  const queued = new Map<string, QueuedDraft>();
  /** Created drafts whose customer the journal does not hold yet: fetched when no draft waits to be sent. */
  const toFetch = new Map<string, string>();
  /** The queued drafts given a backoff: the timer looks only at these, not at every queued draft per turn. */
  const backedOff = new Set<QueuedDraft>();
  let loaded: Promise<void> | null = null;
  /** Loads under way, and drafts finished meanwhile: a load may have read them before their outcome was written. */
  let loading = 0;
  const finishedWhileLoading = new Set<string>();

  const load = async () => {
    loading++;
    try {
      for (const draft of await journal.drafts.queued()) {
        if (queued.has(draft.id) || finishedWhileLoading.has(draft.id)) continue;
        const loadedDraft = { id: draft.id, attempts: draft.attempts, nextAttemptAt: draft.nextAttemptAt };
        queued.set(draft.id, loadedDraft);
        if (loadedDraft.nextAttemptAt !== null) backedOff.add(loadedDraft);
      }
    } finally {
      if (--loading === 0) finishedWhileLoading.clear();
    }
  };

  return {
    /** Reads the queued drafts from the journal (again): those this process did not queue are added. */
    reload(): Promise<void> {
      loaded = load();
      return loaded;
    },
    /** A draft was queued (its key committed): due now. */
    queue(id: string, entry?: OutboxEntry): void {
      const earlier = queued.get(id);
      if (earlier) backedOff.delete(earlier);
      queued.delete(id);
      queued.set(id, { id, attempts: 0, nextAttemptAt: null, ...(entry ? { entry } : {}) });
    },
    get(id: string): QueuedDraft | undefined {
      return queued.get(id);
    },
    /** The draft is no longer queued (created, rejected, or needs attention), and the journal says so. */
    done(id: string): void {
      const draft = queued.get(id);
      if (draft) backedOff.delete(draft);
      queued.delete(id);
      if (loading > 0) finishedWhileLoading.add(id);
    },
    /** A failure that may pass: due again at `nextAttemptAt`. */
    backOff(draft: QueuedDraft, attempts: number, nextAttemptAt: string): void {
      Object.assign(draft, { attempts, nextAttemptAt });
      if (queued.get(draft.id) === draft) backedOff.add(draft);
    },
    clearBackoff(): void {
      for (const draft of backedOff) draft.nextAttemptAt = null;
      backedOff.clear();
    },
    /** Never tried (or backoff cleared) first, in the order queued; then the earliest backoff that has ended. */
    async nextDue(busy: ReadonlySet<string>): Promise<QueuedDraft | undefined> {
      loaded ??= load();
      await loaded;
      const at = now().toISOString();
      let earliest: QueuedDraft | undefined;
      for (const draft of queued.values()) {
        if (busy.has(draft.id)) continue;
        if (draft.nextAttemptAt === null) return draft;
        if (draft.nextAttemptAt <= at && (!earliest || draft.nextAttemptAt < earliest.nextAttemptAt!)) {
          earliest = draft;
        }
      }
      return earliest;
    },
    /** When the earliest backoff ends, if any is in the future. */
    nextAttemptAfter(): string | null {
      const at = now().toISOString();
      let next: string | null = null;
      for (const { nextAttemptAt } of backedOff) {
        if (nextAttemptAt !== null && nextAttemptAt > at && (next === null || nextAttemptAt < next)) {
          next = nextAttemptAt;
        }
      }
      return next;
    },
    nextFetch(busy: ReadonlySet<string>): { draftId: string; customerId: string } | undefined {
      for (const [draftId, customerId] of toFetch) {
        if (busy.has(draftId)) continue;
        toFetch.delete(draftId);
        return { draftId, customerId };
      }
      return undefined;
    },
    fetchLater(draftId: string, customerId: string): void {
      toFetch.set(draftId, customerId);
    },
    get fetchesLeft(): number {
      return toFetch.size;
    },
  };
}
export type WorkList = ReturnType<typeof workList>;

/** Request bodies of drafts this process validated, so that sending them needs no second decryption. */
export function bodyCache(journal: Journal) {
  const bodies = new Map<string, ServiceCustomerInput>();
  return {
    set(id: string, body: CustomerInput): void {
      bodies.set(id, body as ServiceCustomerInput);
    },
    async get(id: string): Promise<ServiceCustomerInput | undefined> {
      let body = bodies.get(id);
      if (!body) {
        const draft = await journal.drafts.get(id);
        body = draft && (customerBody(draft.form) as ServiceCustomerInput);
        if (body) bodies.set(id, body);
      }
      return body;
    },
    delete(id: string): void {
      bodies.delete(id);
    },
    clear(): void {
      bodies.clear();
    },
  };
}
export type BodyCache = ReturnType<typeof bodyCache>;
