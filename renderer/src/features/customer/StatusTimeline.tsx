import type { StatusChange } from '../../../../contract/customers.ts';
import { formatDateTime } from '../../ui/time.tsx';
import { EventLogLink } from '../events/EventLogLink.tsx';
import { useCustomerStore } from './customer-store.ts';

function causeOf(change: StatusChange): string {
  switch (change.source) {
    case 'created':
      return 'Created by Vetted';
    case 'poll':
      return 'Seen when Vetted asked the service';
    case 'event':
      return change.eventId ? `Reported by webhook event ${change.eventId}` : 'Reported by a webhook event';
  }
}

/** Every status the customer has had, oldest first, with what told Vetted about it. */
export function StatusTimeline({ history }: { history: StatusChange[] }) {
  // The customer on screen: the one whose events an entry links to.
  const customerId = useCustomerStore((state) => state.id);
  return (
    <section aria-labelledby="customer-history" className="customer-section">
      <h3 id="customer-history">Status history</h3>
      {history.length === 0 ? (
        <p>No status recorded yet.</p>
      ) : (
        <ol className="timeline">
          {history.map((change) => (
            <li key={`${change.at}-${change.status}-${change.eventId ?? change.source}`}>
              <strong className="timeline-status">{change.status}</strong>{' '}
              <time dateTime={change.at}>{formatDateTime(change.at)}</time>
              <span className="timeline-cause">{causeOf(change)}</span>
              {change.eventId && customerId && (
                <EventLogLink customerId={customerId} eventId={change.eventId} />
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
