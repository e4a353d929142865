import type { CustomerInput } from '../../../contract/customer-rules.ts';
import type { Journal } from '../../journal/index.ts';
import type { CustomerInput as ServiceCustomerInput } from '../../service/index.ts';
import { customerBody } from '../form.ts';

const DUE_BATCH = 64;

/** What the outbox has to do: queued drafts that are due, and created drafts whose customer is fetched next. */
export function workList(journal: Journal, now: () => Date) {
  let dueBuffer: string[] = [];
  /** Created drafts whose customer the journal does not hold yet: fetched when no draft waits to be sent. */
  const toFetch = new Map<string, string>();
  return {
    /** Due drafts are read a batch at a time; sending checks each again before it goes. */
    async nextDue(busy: ReadonlySet<string>): Promise<string | undefined> {
      let id = dueBuffer.shift();
      while (id !== undefined && busy.has(id)) id = dueBuffer.shift();
      if (id !== undefined) return id;
      const due = await journal.drafts.due(now().toISOString(), busy.size + DUE_BATCH);
      dueBuffer = due.filter((draftId) => !busy.has(draftId));
      return dueBuffer.shift();
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
