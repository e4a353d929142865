import type { z } from 'zod';
import { OneFieldDialog } from './OneFieldDialog.tsx';

interface ReasonDialogProps {
  open: boolean;
  title: string;
  /** What the audit log will say about it. */
  hint: string;
  action: { label: string; busyLabel: string };
  /** The contract's rule for the reason: the reviewer hears it before anything is sent. */
  rule: z.ZodType<string>;
  /** Main's field key for the reason, e.g. "/reason". */
  fieldPointer: string;
  submit(reason: string): Promise<void>;
  onClose(): void;
}

/** Asks why the reviewer needs personal data (to see it, to export it); main audits the reason. */
export function ReasonDialog({ rule, submit, ...props }: ReasonDialogProps) {
  return (
    <OneFieldDialog
      {...props}
      label="Reason"
      multiline
      check={(reason) => {
        const checked = rule.safeParse(reason);
        return checked.success ? null : (checked.error.issues[0]?.message ?? 'Say why you need this.');
      }}
      submit={(reason) => submit(rule.parse(reason))}
    />
  );
}
