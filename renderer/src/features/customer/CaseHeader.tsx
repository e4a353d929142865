import { Copy, ExternalLink } from 'lucide-react';
import type { CustomerDetail } from '#contract/customers.ts';
import { SECTION_TITLES } from '#contract/queue.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { statusLook } from '#renderer/shared/case/status-look.ts';
import { useTeamMe } from '#renderer/shared/team/team-me-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { StatusBadge } from '#renderer/ui/StatusBadge.tsx';
import { TimeSince, useNow } from '#renderer/ui/time.tsx';
import { useCaseParts } from './case-parts.tsx';

const isWebAddress = (href: string) => /^https:\/\//i.test(href);

/** The service's own page for this customer, when it gave one. */
function dashboardLink(links: CustomerDetail['links']): string | null {
  return links.find((link) => /dashboard/i.test(link.rel) && isWebAddress(link.href))?.href ?? null;
}

/** Who the case is, where it stands and since when, its ID (copyable), and the service's page for it. */
export function CaseHeader({ customer }: { customer: CustomerDetail }) {
  const now = useNow();
  const me = useTeamMe();
  const { Claim } = useCaseParts();
  const dashboard = dashboardLink(customer.links);
  const look = statusLook(customer.section, customer.status);
  const title = customer.section === 'other' ? customer.status : SECTION_TITLES[customer.section];
  return (
    <header className="case-header">
      <h2 id="customer-title" tabIndex={-1}>
        {customer.name}
      </h2>
      <p className="case-status">
        <StatusBadge {...look} label={title} /> for <TimeSince since={customer.statusSince} now={now} />
      </p>
      <p className="case-id">
        <span className="case-id-label">Customer ID</span> <code>{customer.id}</code>
        <Button
          size="sm"
          weight="quiet"
          icon={Copy}
          shortcut="c"
          onClick={() => void useCaseStore.getState().copyId()}
        >
          Copy<span className="visually-hidden"> customer ID</span>
        </Button>
        {dashboard && (
          <a href={dashboard} target="_blank" rel="noreferrer" className="case-dashboard">
            <ExternalLink aria-hidden="true" className="link-icon" />
            Open in the service’s dashboard
          </a>
        )}
      </p>
      {me?.claims && <Claim customerId={customer.id} me={me} />}
    </header>
  );
}
