import { z } from 'zod';

/**
 * The ids the service gives its resources (customers, documents, webhook subscriptions, events, webhooks).
 * Its description types every one as a plain string, with no pattern and no length: Vetted treats them as
 * opaque. It refuses only what it cannot show, key or put in a web address: an empty id, one longer than
 * SERVICE_ID_MAX, control characters, a broken character (half of a surrogate pair), and `.` or `..`
 * (a URL path resolves them away, percent-encoded or not). Such an id is refused in words that name it.
 *
 * Ids Vetted mints itself (drafts, approvals, uploads, idempotency keys) stay UUIDs.
 */
export const SERVICE_ID_MAX = 255;

const CONTROL = /\p{Cc}/u;
const BROKEN = /\p{Cs}/u;
const SHOWN_MAX = 80;

/** Why Vetted cannot use this id, or null when it can. */
export function serviceIdProblem(id: string): string | null {
  if (id.length === 0) return 'it is empty';
  if (id.length > SERVICE_ID_MAX) return `it is longer than ${SERVICE_ID_MAX} characters`;
  if (CONTROL.test(id)) return 'it holds control characters';
  if (BROKEN.test(id)) return 'it holds a broken character (half of a surrogate pair)';
  if (id === '.' || id === '..') return 'a web address cannot name it';
  return null;
}

/** The id quoted for a sentence: control and broken characters escaped, a long one cut. */
export function idInWords(id: string): string {
  const shown = id.length > SHOWN_MAX ? `${id.slice(0, SHOWN_MAX)}…` : id;
  return JSON.stringify(shown);
}

/** The sentence that refuses an id: which resource, the id, and why. */
export function unusableIdMessage(what: string, id: string): string {
  const problem = serviceIdProblem(id) ?? 'it is not one Vetted can use';
  return `Vetted cannot use the ${what} id ${idInWords(id)}: ${problem}.`;
}

/**
 * A service id in a contract channel. The refusal names the id and says why; `told` asks the contract's
 * dispatcher to answer with these words rather than its generic "not valid".
 */
export const serviceIdOf = (what: string) =>
  z.string().superRefine((id, ctx) => {
    if (serviceIdProblem(id) !== null) {
      ctx.addIssue({ code: 'custom', message: unusableIdMessage(what, id), params: { told: true } });
    }
  });

export const ServiceIdSchema = serviceIdOf('service');
export const ServiceCustomerIdSchema = serviceIdOf('customer');
export const SubscriptionIdSchema = serviceIdOf('subscription');
export const EventIdSchema = serviceIdOf('event');

export const isServiceId = (id: string): boolean => serviceIdProblem(id) === null;
