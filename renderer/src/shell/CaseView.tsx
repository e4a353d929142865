import { ApprovalPanel } from '#renderer/features/approvals/ApprovalPanel.tsx';
import { CaseClaim } from '#renderer/features/claims/CaseClaim.tsx';
import { CustomerView } from '#renderer/features/customer/CustomerView.tsx';
import type { CaseParts } from '#renderer/features/customer/case-parts.tsx';
import { DocumentsPanel } from '#renderer/features/documents/DocumentsPanel.tsx';
import { focusDropZone } from '#renderer/features/documents/DropZone.tsx';
import { useEventLogStore } from '#renderer/features/events/event-log-store.ts';
import { RetryDialog } from '#renderer/features/retry/RetryDialog.tsx';

/** The case panel with what it shows of the other features: the claim, approvals, documents, retry, events. */
const PARTS: CaseParts = {
  Claim: CaseClaim,
  Approvals: ApprovalPanel,
  Documents: DocumentsPanel,
  Retry: RetryDialog,
  focusUpload: focusDropZone,
  showEvents: (customerId, eventId) => useEventLogStore.getState().showCustomerEvents(customerId, eventId),
};

/** The queue's right pane: a chunk of its own, loaded by shell/queue-parts.tsx. */
export function CaseView({ id, onBack }: { id: string; onBack(): void }) {
  return <CustomerView id={id} onBack={onBack} parts={PARTS} />;
}
