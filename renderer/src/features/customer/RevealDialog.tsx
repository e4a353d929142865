import { type PersonalData, RevealInputSchema } from '#contract/customers.ts';
import { ReasonDialog } from '#renderer/ui/ReasonDialog.tsx';
import { useCustomerStore } from './customer-store.ts';

interface RevealDialogProps {
  open: boolean;
  customerId: string;
  onClose(): void;
  onRevealed(data: PersonalData): void;
}

/** Asks why the reviewer needs the personal data; main records the reason in the audit log. */
export function RevealDialog({ open, customerId, onClose, onRevealed }: RevealDialogProps) {
  return (
    <ReasonDialog
      open={open}
      title="Reveal personal data"
      hint="Vetted writes who looked, when and why to its audit log."
      action={{ label: 'Reveal', busyLabel: 'Revealing…' }}
      rule={RevealInputSchema.shape.reason}
      fieldPointer="/reason"
      submit={async (reason) => onRevealed(await useCustomerStore.getState().reveal(customerId, reason))}
      onClose={onClose}
    />
  );
}
