import { Activity, FileUp, type LucideIcon, RotateCcw, StickyNote } from 'lucide-react';
import { useId } from 'react';
import type { CustomerDetail } from '#contract/customers.ts';
import { statusGuidance } from '#contract/statuses.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { useCaseParts } from './case-parts.tsx';
import { type HeldByAnother, type NextStep, nextStep } from './next-step.ts';

interface CaseActionsProps {
  customer: CustomerDetail;
  /** Team mode: another reviewer holds the case (its next step says so, and what is left to this one). */
  held?: HeldByAnother | null;
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
 * keyboard or screen-reader user meets them too) and say why, each reason said once: a held case's reason
 * is its next step's own words, which those actions point to rather than repeat.
 */
export function CaseActions({ customer, held = null, onRetry, onUpload, onNote }: CaseActionsProps) {
  const step = nextStep(customer, held);
  const { showEvents } = useCaseParts();
  const reasonIds = useId();
  const detailId = `${reasonIds}-step`;
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
  const note: StatusAction = {
    label: 'Write a note',
    icon: StickyNote,
    shortcut: 'n',
    reason: null,
    run: onNote,
  };
  const primary =
    step.primary === 'note' ? note : statusActions.find((a) => a.label === primaryLabel(step.primary));
  const others = statusActions.filter((action) => action !== primary);
  const { reasons, reasonId } = reasonsOf(others, step, reasonIds, detailId);
  return (
    <section aria-labelledby="customer-actions" className="case-actions">
      <h3 id="customer-actions" className="visually-hidden">
        Actions
      </h3>
      <NextStepNotice step={step} customer={customer} detailId={detailId} primary={primary} />
      <div className="actions case-toolbar">
        {primary !== note && (
          <Button icon={StickyNote} shortcut="n" onClick={onNote}>
            Write a note
          </Button>
        )}
        <Button icon={Activity} shortcut="e" onClick={() => showEvents(customer.id)}>
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

const primaryLabel = (primary: NextStep['primary']) =>
  primary === 'retry' ? 'Retry verification' : primary === 'upload' ? 'Upload documents' : null;

/** The next step: its title, what it means (the status's guidance, or a held case's words), its one action. */
function NextStepNotice({
  step,
  customer,
  detailId,
  primary,
}: {
  step: NextStep;
  customer: CustomerDetail;
  detailId: string;
  primary: StatusAction | undefined;
}) {
  const pendingDocuments = customer.section === 'review' ? 1 : 0;
  return (
    <section aria-label="Next step" className={`next-step notice notice-${step.tone}`}>
      <step.icon aria-hidden="true" className="notice-icon" />
      <div className="next-step-text">
        <p className="next-step-title">{step.title}</p>
        {step.detail ? (
          <p id={detailId} className="next-step-detail">
            {step.detail}
          </p>
        ) : customer.gone ? (
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
    </section>
  );
}

/**
 * The reasons said under the toolbar, each once, and the id each disabled action is described by: a reason
 * the next step's own words say (a held case's) is pointed at there rather than said again.
 */
function reasonsOf(others: StatusAction[], step: NextStep, ids: string, detailId: string) {
  const saidByStep = (reason: string) => step.detail?.startsWith(reason) ?? false;
  const reasons = [
    ...new Set(
      others.flatMap((action) => (action.reason && !saidByStep(action.reason) ? [action.reason] : [])),
    ),
  ];
  const reasonId = (reason: string) => (saidByStep(reason) ? detailId : `${ids}-${reasons.indexOf(reason)}`);
  return { reasons, reasonId };
}
