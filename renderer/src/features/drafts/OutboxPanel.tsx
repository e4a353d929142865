import { SendHorizontal } from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import type { OutboxStatus } from '#contract/drafts.ts';
import {
  outboxSummary,
  SERVICE_UNREACHABLE,
  submitAllUnavailable,
} from '#renderer/shared/case/draft-states.ts';
import { statusLook } from '#renderer/shared/case/status-look.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { JobProgress } from '#renderer/shared/jobs/JobProgress.tsx';
import { useAppStore } from '#renderer/store.ts';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import { StatusBadge } from '#renderer/ui/StatusBadge.tsx';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { useOutboxStore } from './outbox-store.ts';

interface OutboxPanelProps {
  /** The draft open beside the panel. */
  currentId: string | null;
  /** Saves the open form first, so that "Submit all" sends what is on screen. */
  beforeSubmitAll(): Promise<unknown>;
}

/** Every draft on its way to the service: how many wait where, "Submit all", and its progress. */
export function OutboxPanel({ currentId, beforeSubmitAll }: OutboxPanelProps) {
  const { status, drafts, total, submitting, notice, problem } = useOutboxStore(
    useShallow((state) => ({
      status: state.status,
      drafts: state.drafts,
      total: state.total,
      submitting: state.submitting,
      notice: state.notice,
      problem: state.problem,
    })),
  );
  const openDraft = useAppStore((state) => state.openDraft);
  useWatch(useOutboxStore.getState().watch);

  const submitAll = async () => {
    await beforeSubmitAll().catch(() => {});
    await useOutboxStore.getState().submitAll();
  };

  return (
    <aside className="outbox" aria-labelledby="outbox-title">
      <h3 id="outbox-title">Drafts &amp; outbox</h3>
      {status && <OutboxSummary status={status} />}
      <ReasonButton
        unavailable={status && submitAllUnavailable(status.counts)}
        busy={submitting}
        icon={SendHorizontal}
        onClick={() => void submitAll()}
      >
        Submit all
      </ReasonButton>
      <JobProgress />
      <p className="outbox-notice" aria-live="polite">
        {notice}
      </p>
      {problem && <p role="alert">{problem}</p>}
      <ul className="outbox-drafts" aria-label="Drafts not created yet">
        {drafts.map((draft) => (
          <li key={draft.id}>
            {draft.id === currentId ? (
              <span aria-current="true" className="outbox-draft-current">
                {draft.name || 'Unnamed draft'} (open)
              </span>
            ) : (
              <button type="button" className="link-button" onClick={() => openDraft(draft.id)}>
                {draft.name || 'Unnamed draft'}
              </button>
            )}{' '}
            <StatusBadge {...statusLook('drafts', draft.status)} />
          </li>
        ))}
      </ul>
      {total > drafts.length && (
        <p className="hint">And {total - drafts.length} more in the queue’s “Drafts &amp; outbox” section.</p>
      )}
    </aside>
  );
}

function OutboxSummary({ status }: { status: OutboxStatus }) {
  const waiting = status.counts.queued + status.counts.sending > 0;
  return (
    <div className="outbox-summary">
      <p>{outboxSummary(status.counts)}</p>
      {waiting && !status.online && (
        <p role="status" className="notice notice-warning outbox-unreachable">
          {SERVICE_UNREACHABLE}
        </p>
      )}
      {status.nextAttemptAt && (
        <p className="hint">
          Next attempt <time dateTime={status.nextAttemptAt}>{formatDateTime(status.nextAttemptAt)}</time>.
        </p>
      )}
    </div>
  );
}
