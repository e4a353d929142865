import { type AvailableActions, availableActions } from '#contract/statuses.ts';
import { REFUSED } from '#main/data/failures.ts';
import type { JournalCustomer } from '#main/data/journal/index.ts';

/**
 * What the service offers this customer, by its status and the links it gave with it (the journal's
 * customers from before links were kept have none: the status decides). A gone customer gets nothing.
 */
export function customerActions(customer: JournalCustomer): AvailableActions {
  if (customer.goneAt) {
    const gone = { allowed: false, reason: REFUSED.customerGone } as const;
    return { retry: gone, upload: gone };
  }
  return availableActions(customer.status, Object.keys(customer.links));
}
