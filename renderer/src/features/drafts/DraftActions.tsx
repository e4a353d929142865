import { ExternalLink, Link2, RotateCcw, Send, Trash2 } from 'lucide-react';
import type { DraftStatus } from '#contract/drafts.ts';
import { Button } from '#renderer/ui/Button.tsx';

interface DraftActionsProps {
  /** Null for a new form that is not a draft yet. */
  status: DraftStatus | null;
  busy: boolean;
  onTryAgain(): void;
  onLinkDuplicate(): void;
  onOpenCustomer(customerId: string): void;
  onDiscard(): void;
}

/** The buttons the draft's state allows, its next step the primary one; Submit is the form's own submit. */
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
  const submits = !actions || actions.submit;
  return (
    <div className="actions draft-actions">
      {submits && (
        <Button type="submit" weight="primary" icon={Send} disabled={busy}>
          {busy ? 'Submitting…' : 'Submit'}
        </Button>
      )}
      {actions?.tryAgain && (
        <Button
          weight={submits ? 'secondary' : 'primary'}
          icon={RotateCcw}
          disabled={busy}
          onClick={onTryAgain}
        >
          Try again
        </Button>
      )}
      {actions?.linkDuplicate && (
        <Button icon={Link2} disabled={busy} onClick={onLinkDuplicate}>
          Link to the existing customer
        </Button>
      )}
      {customerId && (
        <Button weight="primary" icon={ExternalLink} onClick={() => onOpenCustomer(customerId)}>
          Open customer
        </Button>
      )}
      {actions?.discard && (
        <Button weight="danger" icon={Trash2} disabled={busy} onClick={onDiscard} className="draft-discard">
          Discard draft…
        </Button>
      )}
    </div>
  );
}
