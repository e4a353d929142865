// What a desk or the hub does with a customer its team outbox created (or a repair found unwritten): the
// customer goes into the team journal, with the personal data from the submitted form.
import type { CustomerForm } from '#contract/drafts.ts';
import type { Journal } from '#main/data/journal/index.ts';
import type { Customer } from '#main/data/service/index.ts';
import { personalData } from '#main/features/drafts/form.ts';

/** The drainer's `onCreated` for `journal`; an upsert, so writing one customer twice is harmless. */
export function writeCreatedInto(journal: Pick<Journal, 'customers'>) {
  return async (customer: Customer, _row: unknown, form: CustomerForm | undefined): Promise<void> => {
    await journal.customers.upsert(customer, { source: 'created' }, form ? personalData(form) : undefined);
  };
}
