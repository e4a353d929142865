// What the service's answer makes of a customer record, the same for the local journal and the team store's
// (main/team/journal/customers.ts): the fields `get` reads back, and a first sighting's whole record.
import { z } from 'zod';
import { sectionOf } from '#contract/queue.ts';
import type { JournalCustomer, Observation, ServiceCustomer } from './repositories/customers.ts';
import { isoTime } from './time.ts';

export const LinksSchema = z
  .record(
    z.string(),
    z.object({ href: z.string(), type: z.string().optional(), 'resource-type': z.string().optional() }),
  )
  .catch({});

/** A customer seen for the first time, as recorded: what `get` reads back after the insert. */
export function firstRecord(
  customer: ServiceCustomer,
  observation: Observation,
  at: string,
): JournalCustomer {
  const created = isoTime(customer.created, at);
  // A customer first seen by a poll has waited since it was created, as far as anyone can tell.
  const statusSince = observation.at ? isoTime(observation.at, at) : created;
  return {
    ...fromService(customer, ''),
    section: sectionOf(customer.status),
    statusSince,
    created,
    lastRefreshed: at,
    goneAt: null,
    pendingDocuments: 0,
    note: null,
    // As the insert trigger sets it (migration 7).
    changedAt: statusSince,
  };
}

/** What the service's answer says of a customer, as `get` gives it. */
export function fromService(customer: ServiceCustomer, previousUrl: string) {
  return recordedFields(serviceFields(customer, previousUrl), customer._links);
}

/** The columns that come straight from the service's answer. */
export function serviceFields(customer: ServiceCustomer, previousUrl: string) {
  return {
    id: customer.id,
    url: customer._links.self?.href ?? previousUrl,
    name: [customer.firstName, customer.lastName].filter(Boolean).join(' '),
    email: customer.email,
    type: customer.type,
    status: customer.status,
    links: JSON.stringify(customer._links),
  };
}

/** What `get` would read back of the columns `serviceFields` gave. */
export function recordedFields(fields: ReturnType<typeof serviceFields>, links: ServiceCustomer['_links']) {
  const { id, url, name, email, type, status } = fields;
  return { id, url, name, email, type, status, links: LinksSchema.parse(links) };
}
