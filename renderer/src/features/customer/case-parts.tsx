import { type ComponentType, createContext, useContext } from 'react';
import type { CustomerDetail } from '#contract/customers.ts';
import type { TeamMe } from '#contract/roles.ts';

export interface RetryDialogProps {
  open: boolean;
  customerId: string;
  customerName: string;
  onClose(): void;
  /** The retry was answered, whatever the answer: the customer's page reads it again. */
  onSent(): void;
}

/**
 * What the case panel shows of other features: the claim in its header, the approvals, the documents, the
 * retry dialog, and the way to the event log. The shell hands them in (renderer/src/shell/CaseView.tsx), so
 * this feature imports none of those, and none of them imports it.
 */
export interface CaseParts {
  /** Team mode: who holds the case, and taking it or handing it on. */
  Claim: ComponentType<{ customerId: string; me: TeamMe }>;
  Approvals: ComponentType<{ customerId: string }>;
  Documents: ComponentType<{ customer: CustomerDetail }>;
  Retry: ComponentType<RetryDialogProps>;
  /** Moves the focus to the documents' drop zone (the `u` key, the Upload button). */
  focusUpload(): void;
  /** The event log, narrowed to this customer, with one event pointed out if given. */
  showEvents(customerId: string, eventId?: string): void;
}

const CasePartsContext = createContext<CaseParts | null>(null);

export const CasePartsProvider = CasePartsContext.Provider;

/** The parts the shell handed to the case panel (CustomerView provides them to everything inside it). */
export function useCaseParts(): CaseParts {
  const parts = useContext(CasePartsContext);
  if (!parts) throw new Error('The case panel is shown without its parts (CustomerView provides them).');
  return parts;
}
