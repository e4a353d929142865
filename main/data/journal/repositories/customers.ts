// The customers repository's interface: customers as last seen on the service, their status history, and
// their personal data.
import type { Section } from '#contract/queue.ts';
import type { Customer, Link } from '#main/data/service/hal.ts';
import type { PersonalData } from './personal-data.ts';

/** How a status was learnt: from our own create, a GET (start-up, refresh), or a webhook event. */
export type StatusSource = 'created' | 'poll' | 'event';

/**
 * What the service says about a customer: the fields of a `GET /customers/{id}` the journal keeps, and
 * any others it gave (kept encrypted: see `reportedFields`).
 */
export type ServiceCustomer = Pick<
  Customer,
  'id' | 'firstName' | 'lastName' | 'email' | 'type' | 'status' | 'created' | '_links'
> & { readonly [field: string]: unknown };

export interface Observation {
  source: StatusSource;
  /** The event that told us, when `source` is `event`. */
  eventId?: string;
  /** When the status was reached, if known (an event's `created`); otherwise it is now. */
  at?: string;
}

export interface JournalCustomer {
  id: string;
  url: string;
  /** firstName and lastName. */
  name: string;
  email: string;
  type: string;
  status: string;
  section: Exclude<Section, 'drafts'>;
  /** When the current status was reached: the queue's order. */
  statusSince: string;
  created: string;
  lastRefreshed: string;
  links: Record<string, Link>;
  /** When the service answered 404 for it; null while it exists. */
  goneAt: string | null;
  pendingDocuments: number;
  /** The queue row's line, e.g. why the last document was rejected. */
  note: string | null;
  /** The last time anything the queue shows changed (kept by the journal's triggers). */
  changedAt: string;
}

export interface StatusChange {
  status: string;
  at: string;
  source: StatusSource;
  eventId: string | null;
}

export interface UpsertResult {
  customer: JournalCustomer;
  /** First time the journal sees this customer. */
  isNew: boolean;
  /** The status differs from the one recorded (always true for a new customer). */
  statusChanged: boolean;
  /** The customer as recorded just before this write (undefined: new), read under the write's own lock. */
  before: JournalCustomer | undefined;
}

export interface CustomersRepository {
  /**
   * Records what the service answered for a customer, and its status in the history if it changed; with
   * `personal`, its personal data too (as `setPersonal`, in the same statement).
   */
  upsert(customer: ServiceCustomer, observation: Observation, personal?: PersonalData): Promise<UpsertResult>;
  get(id: string): Promise<JournalCustomer | undefined>;
  /** Every status observed, oldest first. */
  history(id: string): Promise<StatusChange[]>;
  /** The service answered 404: kept and shown as gone, never deleted. Unknown ids are ignored. */
  markGone(id: string): Promise<JournalCustomer | undefined>;
  /** Documents waiting for review move a `document` customer to "Document in review". */
  setDocuments(
    id: string,
    documents: { pending: number; note: string | null },
  ): Promise<JournalCustomer | undefined>;
  setPersonal(id: string, personal: PersonalData): Promise<void>;
  /**
   * The fields the service's last answer gave beyond the interface document's (address, phone, any
   * other), decrypted; empty when it gave none. Throws `JournalError` if they do not decrypt.
   */
  reported(id: string): Promise<Record<string, unknown>>;
  /** Decrypted; undefined when none was stored. Throws `JournalError` if it does not decrypt. */
  personal(id: string): Promise<PersonalData | undefined>;
  /** Customers whose status may still change (not verified, suspended or deactivated) and not gone: to GET at start-up. */
  toReconcile(): Promise<string[]>;
}
