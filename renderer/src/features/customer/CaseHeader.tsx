import type { CustomerDetail } from '../../../../contract/customers.ts';
import { SECTION_TITLES } from '../../../../contract/queue.ts';
import { KeyHint } from '../../ui/KeyHint.tsx';
import { TimeSince, useNow } from '../../ui/time.tsx';
import { useCaseStore } from './case-store.ts';
import { StatusGuidance } from './StatusGuidance.tsx';

const isWebAddress = (href: string) => /^https:\/\//i.test(href);

/** The service's own page for this customer, when it gave one. */
function dashboardLink(links: CustomerDetail['links']): string | null {
  return links.find((link) => /dashboard/i.test(link.rel) && isWebAddress(link.href))?.href ?? null;
}

/** Who the case is, its ID (copyable), where it stands and since when, and the service's page for it. */
export function CaseHeader({ customer }: { customer: CustomerDetail }) {
  const now = useNow();
  const dashboard = dashboardLink(customer.links);
  return (
    <header className="case-header">
      <h2 id="customer-title" tabIndex={-1}>
        {customer.name}
      </h2>
      <p className="case-id">
        <span>Customer ID</span> <code>{customer.id}</code>{' '}
        <button type="button" aria-keyshortcuts="c" onClick={() => void useCaseStore.getState().copyId()}>
          Copy customer ID <KeyHint keys="c" />
        </button>
      </p>
      <p className="case-status">
        <strong>{SECTION_TITLES[customer.section]}</strong>
        {customer.section === 'other' && ` (${customer.status})`} for{' '}
        <TimeSince since={customer.statusSince} now={now} />
      </p>
      <StatusGuidance status={customer.status} pendingDocuments={customer.section === 'review' ? 1 : 0} />
      {dashboard && (
        <p>
          <a href={dashboard} target="_blank" rel="noreferrer">
            Open in the service’s dashboard
          </a>
        </p>
      )}
    </header>
  );
}
