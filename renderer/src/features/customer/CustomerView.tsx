import { useEffect, useState } from 'react';
import type { CustomerDetail } from '../../../../contract/customers.ts';
import { ShortcutsHelp } from '../../ui/ShortcutsHelp.tsx';
import { useShortcuts } from '../../ui/shortcuts.ts';
import { formatDateTime } from '../../ui/time.tsx';
import { useWatch } from '../../ui/watch.ts';
import { DocumentsPanel } from '../documents/DocumentsPanel.tsx';
import { focusDropZone } from '../documents/DropZone.tsx';
import { RetryDialog } from '../retry/RetryDialog.tsx';
import { CaseHeader } from './CaseHeader.tsx';
import { CaseTimeline } from './CaseTimeline.tsx';
import { CaseToolbar } from './CaseToolbar.tsx';
import { CustomerActions } from './CustomerActions.tsx';
import { caseShortcuts } from './case-shortcuts.ts';
import { useCaseStore } from './case-store.ts';
import { useCustomerStore } from './customer-store.ts';
import { NoteDialog } from './NoteDialog.tsx';
import { PersonalDataPanel } from './PersonalDataPanel.tsx';
import { ServiceLinks } from './ServiceLinks.tsx';
import { StoredImages } from './StoredImages.tsx';

interface CustomerViewProps {
  id: string;
  onBack(): void;
}

type Opened = 'help' | 'note' | 'retry' | null;

/** The case panel: who, where it stands and since when, what happened, and what can be done, by key too. */
export function CustomerView({ id, onBack }: CustomerViewProps) {
  const { detail, problem, refreshing, notice, open, refresh } = useCustomerStore();
  const announcement = useCaseStore((state) => state.announcement);
  const [opened, setOpened] = useState<Opened>(null);
  useWatch(useCustomerStore.getState().watch);
  useWatch(useCaseStore.getState().watch);

  useEffect(() => {
    void open(id);
    void useCaseStore.getState().open(id);
  }, [id, open]);

  const shown = detail?.id === id ? detail : null;
  const shortcuts = caseShortcuts(shown, {
    back: onBack,
    help: () => setOpened('help'),
    retry: () => setOpened('retry'),
    upload: focusDropZone,
    note: () => setOpened('note'),
  });
  useShortcuts(shortcuts);
  const close = () => setOpened(null);

  return (
    <article className="customer case" aria-labelledby="customer-title" aria-busy={!shown || undefined}>
      <div className="customer-bar">
        <button type="button" onClick={onBack} aria-keyshortcuts="Escape">
          ← Back to queue
        </button>
        <button type="button" onClick={() => void refresh()} disabled={!shown || refreshing}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
        <span className="customer-notice" aria-live="polite">
          {notice}
        </span>
      </div>
      <p className="case-announcement" role="status">
        {announcement}
      </p>
      {problem && <p role="alert">{problem}</p>}
      {shown ? (
        <CaseDetails customer={shown} onNote={() => setOpened('note')} onRetry={() => setOpened('retry')} />
      ) : (
        !problem && <p>Loading customer…</p>
      )}
      {shown && (
        <RetryDialog
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
  );
}

function CaseDetails({
  customer,
  onNote,
  onRetry,
}: {
  customer: CustomerDetail;
  onNote(): void;
  onRetry(): void;
}) {
  return (
    <>
      <CaseHeader customer={customer} />
      {customer.gone && (
        <p className="notice-gone">
          <strong>This customer no longer exists on the service.</strong> The service answered “not found” for
          it. Vetted keeps what it knew, below.
        </p>
      )}
      <CustomerActions actions={customer.actions} slots={{ retry: onRetry, upload: focusDropZone }} />
      <CaseToolbar customerId={customer.id} onNote={onNote} />
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
              <time dateTime={customer.created}>{formatDateTime(customer.created)}</time>
            </dd>
          </>
        )}
        <dt>Last refreshed</dt>
        <dd>
          {customer.lastRefreshedAt ? (
            <time dateTime={customer.lastRefreshedAt}>{formatDateTime(customer.lastRefreshedAt)}</time>
          ) : (
            'Never'
          )}
        </dd>
      </dl>
      <PersonalDataPanel customerId={customer.id} personal={customer.personal} reported={customer.reported} />
      <DocumentsPanel customer={customer} />
      <StoredImages />
      <CaseTimeline customerId={customer.id} />
      <ServiceLinks links={customer.links} />
    </>
  );
}
