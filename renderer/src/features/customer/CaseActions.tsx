import { Activity, FileUp, type LucideIcon, RotateCcw, StickyNote } from 'lucide-react';
import { useId } from 'react';
import type { CustomerDetail } from '../../../../contract/customers.ts';
import { statusGuidance } from '../../../../contract/statuses.ts';
import { Button } from '../../ui/Button.tsx';
import { useEventLogStore } from '../events/event-log-store.ts';
import { nextStep } from './next-step.ts';

interface CaseActionsProps {
  customer: CustomerDetail;
  onRetry(): void;
  onUpload(): void;
  onNote(): void;
}

interface StatusAction {
  label: string;
  icon: LucideIcon;
  shortcut: string;
  reason: string | null;
  run(): void;
}

/**
 * What the case's state asks for, said first: its one primary action (Retry, Upload) or what to wait for.
 * Every other action sits beside it as a secondary one; those the status does not allow stay in reach (a
 * keyboard or screen-reader user meets them too) and say why, each reason said once.
 */
export function CaseActions({ customer, onRetry, onUpload, onNote }: CaseActionsProps) {
  const step = nextStep(customer);
  const reasonIds = useId();
  const pendingDocuments = customer.section === 'review' ? 1 : 0;
  const reasonOf = (state: CustomerDetail['actions']['retry']) =>
    state.allowed ? null : (state.reason ?? 'Not allowed in this status.');
  const statusActions: StatusAction[] = [
    {
      label: 'Retry verification',
      icon: RotateCcw,
      shortcut: 'r',
      reason: reasonOf(customer.actions.retry),
      run: onRetry,
    },
    {
      label: 'Upload documents',
      icon: FileUp,
      shortcut: 'u',
      reason: reasonOf(customer.actions.upload),
      run: onUpload,
    },
  ];
  const [primary] = statusActions.filter((action) => action.label === primaryLabel(step.primary));
  const others = statusActions.filter((action) => action !== primary);
  const reasons = [...new Set(others.flatMap((action) => (action.reason ? [action.reason] : [])))];
  const reasonId = (reason: string) => `${reasonIds}-${reasons.indexOf(reason)}`;
  return (
    <section aria-labelledby="customer-actions" className="case-actions">
      <h3 id="customer-actions" className="visually-hidden">
        Actions
      </h3>
      <div className={`next-step notice notice-${step.tone}`}>
        <step.icon aria-hidden="true" className="notice-icon" />
        <div className="next-step-text">
          <p className="next-step-title">{step.title}</p>
          {customer.gone ? (
            <p className="notice-gone">
              <strong>This customer no longer exists on the service.</strong> The service answered “not found”
              for it. Vetted keeps what it knew, below.
            </p>
          ) : (
            <p className="status-guidance">{statusGuidance(customer.status, pendingDocuments)}</p>
          )}
        </div>
        {primary && (
          <Button weight="primary" icon={primary.icon} shortcut={primary.shortcut} onClick={primary.run}>
            {primary.label}
          </Button>
        )}
      </div>
      <div className="actions case-toolbar">
        <Button icon={StickyNote} shortcut="n" onClick={onNote}>
          Write a note
        </Button>
        <Button
          icon={Activity}
          shortcut="e"
          onClick={() => useEventLogStore.getState().showCustomerEvents(customer.id)}
        >
          Events for this customer
        </Button>
        {others.map((action) => (
          <Button
            key={action.label}
            weight="quiet"
            icon={action.icon}
            shortcut={action.shortcut}
            // Focusable while unavailable (aria-disabled, not disabled): the reason is met, not skipped.
            aria-disabled={action.reason ? true : undefined}
            aria-describedby={action.reason ? reasonId(action.reason) : undefined}
            onClick={() => {
              if (!action.reason) action.run();
            }}
          >
            {action.label}
          </Button>
        ))}
      </div>
      {reasons.map((reason) => (
        <p key={reason} id={reasonId(reason)} className="hint case-action-reason">
          {reason}
        </p>
      ))}
    </section>
  );
}

const primaryLabel = (primary: 'retry' | 'upload' | null) =>
  primary === 'retry' ? 'Retry verification' : primary === 'upload' ? 'Upload documents' : null;
