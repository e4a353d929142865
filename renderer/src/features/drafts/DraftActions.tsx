import type { DraftStatus } from '../../../../contract/drafts.ts';

interface DraftActionsProps {
  /** Null for a new form that is not a draft yet. */
  status: DraftStatus | null;
  busy: boolean;
  onTryAgain(): void;
  onLinkDuplicate(): void;
  onOpenCustomer(customerId: string): void;
  onDiscard(): void;
}

/** The buttons the draft's state allows; Submit is the form's own submit button. */
export function DraftActions({
  status,
  busy,
  onTryAgain,
  onLinkDuplicate,
  onOpenCustomer,
  onDiscard,
}: DraftActionsProps) {
  const actions = status?.actions;
  const customerId = status?.state === 'created' ? status.customerId : null;
  return (
    <div className="actions">
      {(!actions || actions.submit) && (
        <button type="submit" disabled={busy}>
          {busy ? 'Submitting…' : 'Submit'}
        </button>
      )}
      {actions?.tryAgain && (
        <button type="button" disabled={busy} onClick={onTryAgain}>
          Try again
        </button>
      )}
      {actions?.linkDuplicate && (
        <button type="button" disabled={busy} onClick={onLinkDuplicate}>
          Link to the existing customer
        </button>
      )}
      {customerId && (
        <button type="button" onClick={() => onOpenCustomer(customerId)}>
          Open customer
        </button>
      )}
      {actions?.discard && (
        <button type="button" disabled={busy} onClick={onDiscard}>
          Discard draft…
        </button>
      )}
    </div>
  );
}
