import type { CustomerDetail } from '#contract/customers.ts';
import { OneFieldDialog } from '#renderer/ui/OneFieldDialog.tsx';
import { useQueueStore } from './queue-store.ts';

interface AddCustomerDialogProps {
  open: boolean;
  onClose(): void;
  onAdded(customer: CustomerDetail): void;
}

/** Brings a customer that exists on the service into Vetted, by its id or its URL. */
export function AddCustomerDialog({ open, onClose, onAdded }: AddCustomerDialogProps) {
  return (
    <OneFieldDialog
      open={open}
      title="Add customer"
      label="Customer ID or URL"
      hint="The customer’s id, or its address on the service."
      action={{ label: 'Add', busyLabel: 'Adding…' }}
      fieldPointer="/ref"
      check={(ref) => (ref.trim() === '' ? 'Paste the customer’s id or URL.' : null)}
      submit={async (ref) => onAdded(await useQueueStore.getState().add(ref))}
      onClose={onClose}
    />
  );
}
