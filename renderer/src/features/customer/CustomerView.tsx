import { ArrowLeft, RefreshCw } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import type { CustomerDetail } from '#contract/customers.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { withClaim } from '#renderer/shared/team/claim-words.ts';
import { useClaimsStore } from '#renderer/shared/team/claims-store.ts';
import { useTeamMe } from '#renderer/shared/team/team-me-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { ShortcutsHelp } from '#renderer/ui/ShortcutsHelp.tsx';
import { useShortcuts } from '#renderer/ui/shortcuts.ts';
import { Moment } from '#renderer/ui/time.tsx';
import { CaseActions } from './CaseActions.tsx';
import { CaseHeader } from './CaseHeader.tsx';
import { CaseTimeline } from './CaseTimeline.tsx';
import { type CaseParts, CasePartsProvider, useCaseParts } from './case-parts.tsx';
import { caseShortcuts } from './case-shortcuts.ts';
import { useCustomerStore } from './customer-store.ts';
import { NoteDialog } from './NoteDialog.tsx';
import type { HeldByAnother } from './next-step.ts';
import { PersonalDataPanel } from './PersonalDataPanel.tsx';
import { ServiceLinks } from './ServiceLinks.tsx';
import { StoredImages } from './StoredImages.tsx';

interface CustomerViewProps {
  id: string;
  onBack(): void;
  /** What the case shows of other features, handed in by the shell. */
  parts: CaseParts;
}

type Opened = 'help' | 'note' | 'retry' | null;

/** The case panel: who, where it stands and since when, what to do next, and what happened, by key too. */
export function CustomerView({ id, onBack, parts }: CustomerViewProps) {
  const { detail, problem, refreshing, notice, open, refresh } = useCustomerStore();
  const announcement = useCaseStore((state) => state.announcement);
  const [opened, setOpened] = useState<Opened>(null);
  useWatch(useCustomerStore.getState().watch);
  useWatch(useCaseStore.getState().watch);

  useEffect(() => {
    void open(id);
    void useCaseStore.getState().open(id);
  }, [id, open]);

  // Team mode: while another reviewer holds the case, what would change it on the service says why not.
  const claim = useClaimsStore((state) => state.byCase[id]);
  const shown = useMemo(() => (detail?.id === id ? withClaim(detail, claim) : null), [detail, id, claim]);
  const canTakeOver = useTeamMe()?.can.takeOver ?? false;
  const held = claim && !claim.mine ? { holder: claim.holder, canTakeOver } : null;
  const shortcuts = caseShortcuts(shown, {
    back: onBack,
    help: () => setOpened('help'),
    retry: () => setOpened('retry'),
    upload: parts.focusUpload,
    note: () => setOpened('note'),
    events: (customerId) => parts.showEvents(customerId),
  });
  useShortcuts(shortcuts);
  const close = () => setOpened(null);
  const { Retry } = parts;

  return (
    <CasePartsProvider value={parts}>
      <article className="customer case" aria-labelledby="customer-title" aria-busy={!shown || undefined}>
        <div className="case-bar">
          <Button
            weight="quiet"
            size="sm"
            icon={ArrowLeft}
            shortcut="Esc"
            onClick={onBack}
            aria-keyshortcuts="Escape"
          >
            Back to queue
          </Button>
          <span className="case-bar-notice" aria-live="polite">
            {notice}
          </span>
          <Button
            weight="quiet"
            size="sm"
            icon={RefreshCw}
            onClick={() => void refresh()}
            disabled={!shown || refreshing}
          >
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </Button>
        </div>
        <div className="case-body">
          <p className="case-announcement" role="status">
            {announcement}
          </p>
          {problem && <p role="alert">{problem}</p>}
          {shown ? (
            <CaseDetails
              customer={shown}
              held={held}
              onNote={() => setOpened('note')}
              onRetry={() => setOpened('retry')}
            />
          ) : (
            !problem && <p className="hint">Loading customer…</p>
          )}
        </div>
        {shown && (
          <Retry
            open={opened === 'retry'}
            customerId={shown.id}
            customerName={shown.name}
            onClose={close}
            onSent={() => void useCustomerStore.getState().changed(shown.id)}
          />
        )}
        <NoteDialog open={opened === 'note'} onClose={close} />
        <ShortcutsHelp open={opened === 'help'} onClose={close} shortcuts={shortcuts} />
      </article>
    </CasePartsProvider>
  );
}

function CaseDetails({
  customer,
  held,
  onNote,
  onRetry,
}: {
  customer: CustomerDetail;
  held: HeldByAnother | null;
  onNote(): void;
  onRetry(): void;
}) {
  const { Approvals, Documents, focusUpload } = useCaseParts();
  return (
    <>
      <CaseHeader customer={customer} />
      <CaseActions customer={customer} held={held} onRetry={onRetry} onUpload={focusUpload} onNote={onNote} />
      <Approvals customerId={customer.id} />
      <section aria-labelledby="customer-details" className="case-section">
        <h3 id="customer-details">Details</h3>
        <dl className="facts">
          <dt>Email</dt>
          <dd>{customer.email}</dd>
          <dt>Type</dt>
          <dd>{customer.type}</dd>
          {customer.note && (
            <>
              <dt>Latest</dt>
              <dd>{customer.note}</dd>
            </>
          )}
          {customer.created && (
            <>
              <dt>Created</dt>
              <dd>
                <Moment at={customer.created} />
              </dd>
            </>
          )}
          <dt>Last refreshed</dt>
          <dd>{customer.lastRefreshedAt ? <Moment at={customer.lastRefreshedAt} /> : 'Never'}</dd>
        </dl>
      </section>
      <PersonalDataPanel customerId={customer.id} personal={customer.personal} reported={customer.reported} />
      <Documents customer={customer} />
      <StoredImages />
      <CaseTimeline customerId={customer.id} />
      <ServiceLinks links={customer.links} />
    </>
  );
}
