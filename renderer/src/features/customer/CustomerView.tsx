import { useEffect, useState } from 'react';
import type { CustomerDetail } from '../../../../contract/customers.ts';
import { SECTION_TITLES } from '../../../../contract/queue.ts';
import { ShortcutsHelp } from '../../ui/ShortcutsHelp.tsx';
import { type Shortcut, useShortcuts } from '../../ui/shortcuts.ts';
import { formatDateTime, TimeSince, useNow } from '../../ui/time.tsx';
import { useWatch } from '../../ui/watch.ts';
import { DocumentsPanel } from '../documents/DocumentsPanel.tsx';
import { focusDropZone } from '../documents/DropZone.tsx';
import { CustomerActions } from './CustomerActions.tsx';
import { useCustomerStore } from './customer-store.ts';
import { PersonalDataPanel } from './PersonalDataPanel.tsx';
import { ServiceLinks } from './ServiceLinks.tsx';
import { StatusGuidance } from './StatusGuidance.tsx';
import { StatusTimeline } from './StatusTimeline.tsx';

interface CustomerViewProps {
  id: string;
  onBack(): void;
}

/** One customer: who, where it stands and since when, how it got there, and what can be done. */
export function CustomerView({ id, onBack }: CustomerViewProps) {
  const { detail, problem, refreshing, notice, open, refresh } = useCustomerStore();
  const [helpOpen, setHelpOpen] = useState(false);
  useWatch(useCustomerStore.getState().watch);

  useEffect(() => {
    void open(id);
  }, [id, open]);

  const shortcuts: Shortcut[] = [
    { keys: ['Escape'], label: 'Back to the queue', run: onBack },
    { keys: ['?'], label: 'Show these shortcuts', run: () => setHelpOpen(true) },
  ];
  useShortcuts(shortcuts);

  const shown = detail?.id === id ? detail : null;
  return (
    <article className="customer" aria-labelledby="customer-title" aria-busy={!shown || undefined}>
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
      {problem && <p role="alert">{problem}</p>}
      {shown ? <CustomerDetails customer={shown} /> : !problem && <p>Loading customer…</p>}
      <ShortcutsHelp open={helpOpen} onClose={() => setHelpOpen(false)} shortcuts={shortcuts} />
    </article>
  );
}

function CustomerDetails({ customer }: { customer: CustomerDetail }) {
  const now = useNow();
  return (
    <>
      <h2 id="customer-title">{customer.name}</h2>
      {customer.gone && (
        <p className="notice-gone">
          <strong>This customer no longer exists on the service.</strong> The service answered “not found” for
          it. Vetted keeps what it knew, below.
        </p>
      )}
      <dl className="facts">
        <dt>First name</dt>
        <dd>{customer.firstName}</dd>
        <dt>Last name</dt>
        <dd>{customer.lastName}</dd>
        <dt>Email</dt>
        <dd>{customer.email}</dd>
        <dt>Type</dt>
        <dd>{customer.type}</dd>
        <dt>Status</dt>
        <dd>
          <strong>{customer.status}</strong> ({SECTION_TITLES[customer.section]}) for{' '}
          <TimeSince since={customer.statusSince} now={now} />
          <StatusGuidance status={customer.status} pendingDocuments={customer.section === 'review' ? 1 : 0} />
        </dd>
        {customer.note && (
          <>
            <dt>Note</dt>
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
      <CustomerActions actions={customer.actions} slots={{ upload: focusDropZone }} />
      <DocumentsPanel customer={customer} />
      <StatusTimeline history={customer.history} />
      <ServiceLinks links={customer.links} />
    </>
  );
}
