import { type PersonalData, RevealInputSchema } from '../../../../contract/customers.ts';
import { OneFieldDialog } from '../../ui/OneFieldDialog.tsx';
import { useCustomerStore } from './customer-store.ts';

/** The same rule main applies, so the reviewer hears it before anything is sent. */
const reasonRule = RevealInputSchema.shape.reason;

interface RevealDialogProps {
  open: boolean;
  customerId: string;
  onClose(): void;
  onRevealed(data: PersonalData): void;
}

/** Asks why the reviewer needs the personal data; main records the reason in the audit log. */
export function RevealDialog({ open, customerId, onClose, onRevealed }: RevealDialogProps) {
  return (
    <OneFieldDialog
      open={open}
      title="Reveal personal data"
      label="Reason"
      hint="Vetted writes who looked, when and why to its audit log."
      action={{ label: 'Reveal', busyLabel: 'Revealing…' }}
      multiline
      fieldPointer="/reason"
      check={(reason) => {
        const checked = reasonRule.safeParse(reason);
        return checked.success ? null : (checked.error.issues[0]?.message ?? 'Say why you need to see this.');
      }}
      submit={async (reason) => onRevealed(await useCustomerStore.getState().reveal(customerId, reason))}
      onClose={onClose}
    />
  );
}
