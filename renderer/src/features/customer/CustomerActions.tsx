import { useState } from 'react';
import type { CustomerDetail } from '../../../../contract/customers.ts';
import { ReasonButton } from '../../ui/ReasonButton.tsx';
import { RetryDialog } from '../retry/RetryDialog.tsx';
import { useCustomerStore } from './customer-store.ts';

type ActionState = CustomerDetail['actions']['retry'];

/**
 * Where the retry form and the document upload plug in: each later feature passes its opener here.
 * Until one does, its button stays and says it is not built yet.
 */
export interface CustomerActionSlots {
  retry?: () => void;
  upload?: () => void;
}

const NOT_BUILT = 'Allowed for this customer, but not in this version of Vetted yet.';

function unavailable(state: ActionState, open: (() => void) | undefined): string | null {
  if (!state.allowed) return state.reason ?? 'Not allowed in this status.';
  return open ? null : NOT_BUILT;
}

/** The actions the customer's status allows, each saying why when it does not. */
export function CustomerActions({
  actions,
  slots = {},
}: {
  actions: CustomerDetail['actions'];
  slots?: CustomerActionSlots;
}) {
  const customer = useCustomerStore((state) => state.detail);
  const [retrying, setRetrying] = useState(false);
  const openRetry = slots.retry ?? (customer ? () => setRetrying(true) : undefined);
  return (
    <section aria-labelledby="customer-actions" className="customer-section">
      <h3 id="customer-actions">Actions</h3>
      <div className="actions">
        <ReasonButton
          unavailable={unavailable(actions.retry, openRetry)}
          onClick={() => openRetry?.()}
          shortcut="r"
        >
          Retry verification
        </ReasonButton>
        <ReasonButton
          unavailable={unavailable(actions.upload, slots.upload)}
          onClick={() => slots.upload?.()}
          shortcut="u"
        >
          Upload documents
        </ReasonButton>
      </div>
      {customer && (
        <RetryDialog
          open={retrying}
          customerId={customer.id}
          customerName={customer.name}
          onClose={() => setRetrying(false)}
          onSent={() => void useCustomerStore.getState().changed(customer.id)}
        />
      )}
    </section>
  );
}
