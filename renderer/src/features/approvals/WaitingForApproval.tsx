import { Download, Hourglass } from 'lucide-react';
import { useState } from 'react';
import { APPROVAL_KIND_TITLES, type Approval } from '#contract/approvals.ts';
import { api } from '#renderer/api.ts';
import { downloadFile } from '#renderer/shared/data/download.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { useAppStore } from '#renderer/store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { StatusBadge } from '#renderer/ui/StatusBadge.tsx';
import { Tag } from '#renderer/ui/Tag.tsx';
import { Moment } from '#renderer/ui/time.tsx';
import { APPROVAL_LOOKS } from './approval-words.tsx';
import { useApprovalsStore } from './approvals-store.ts';

/**
 * The queue's "Waiting for approval" section (four eyes, team mode): every action waiting for a lead, live
 * on every desk; a retry opens its case, an approved export is taken here by whoever asked for it. Nothing
 * is shown while nothing waits (always, on a solo desk).
 */
export function WaitingForApproval() {
  useWatch(useApprovalsStore.getState().watch);
  const open = useApprovalsStore((state) => state.open);
  const [said, setSaid] = useState('');
  if (!open || open.length === 0) return null;
  return (
    <section aria-labelledby="waiting-for-approval" className="waiting-approval">
      <h2 id="waiting-for-approval" className="waiting-approval-title">
        <Hourglass aria-hidden="true" className="queue-section-icon" /> Waiting for approval{' '}
        <span className="queue-section-count">{open.length}</span>
      </h2>
      <ul>
        {open.map((approval) => (
          <li key={approval.id}>
            <Waiting approval={approval} onTaken={setSaid} />
          </li>
        ))}
      </ul>
      <span role="status" className="visually-hidden">
        {said}
      </span>
    </section>
  );
}

function Waiting({ approval, onTaken }: { approval: Approval; onTaken(said: string): void }) {
  const who = approval.mine ? 'you' : approval.maker;
  const title = APPROVAL_KIND_TITLES[approval.kind];
  const label = (
    <>
      <span className="waiting-approval-kind">{title}</span>
      <span className="hint">
        by {who} · <Moment at={approval.requestedAt} />
      </span>
      {approval.canDecide && <Tag tone="warning">Yours to decide</Tag>}
      {approval.state === 'approved' && <StatusBadge {...APPROVAL_LOOKS.approved} />}
    </>
  );
  if (approval.customerId) {
    const customerId = approval.customerId;
    return (
      <button
        type="button"
        className="queue-section waiting-approval-item"
        onClick={() => useAppStore.getState().openCustomer(customerId)}
      >
        {label}
      </button>
    );
  }
  return (
    <div className="queue-section waiting-approval-item">
      {label}
      {approval.mine && approval.state === 'approved' && (
        <Button
          size="sm"
          weight="primary"
          icon={Download}
          onClick={async () => {
            const file = await api.approvals.collect({ id: approval.id });
            downloadFile(file);
            onTaken(`Exported ${file.count} rows with names.`);
          }}
        >
          Download export
        </Button>
      )}
    </div>
  );
}
