import type { TimelineEntry } from '../../../../contract/case.ts';
import { formatDateTime } from '../../ui/time.tsx';
import { EventLogLink } from '../events/EventLogLink.tsx';
import { useCaseStore } from './case-store.ts';

const KIND_LABEL: Record<TimelineEntry['kind'], string> = {
  status: 'Status',
  event: 'Service event',
  action: 'Action',
  note: 'Note',
  reveal: 'Personal data',
  document: 'Document',
};

/** Everything about the customer, newest first, each with who and when; older entries on request. */
export function CaseTimeline({ customerId }: { customerId: string }) {
  const entries = useCaseStore((state) => state.timeline);
  const hasOlder = useCaseStore((state) => state.hasOlder);
  const problem = useCaseStore((state) => state.problem);
  return (
    <section aria-labelledby="case-timeline" className="customer-section">
      <h3 id="case-timeline">Timeline</h3>
      {problem && <p role="alert">{problem}</p>}
      {entries.length === 0 ? (
        <p>Nothing recorded yet.</p>
      ) : (
        <ol className="case-timeline" aria-label="Timeline, newest first">
          {entries.map((entry) => (
            <li key={entry.key} className={`case-timeline-${entry.kind}`}>
              <p className="case-timeline-head">
                <span className="case-timeline-kind">{KIND_LABEL[entry.kind]}</span>{' '}
                <strong>{entry.title}</strong>
              </p>
              {entry.detail && <p className="case-timeline-detail">{entry.detail}</p>}
              <p className="case-timeline-meta">
                {entry.who} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                {entry.eventId && (
                  <>
                    {' · '}
                    <EventLogLink customerId={customerId} eventId={entry.eventId} />
                  </>
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
      {hasOlder && (
        <button type="button" onClick={() => void useCaseStore.getState().showOlder()}>
          Show older
        </button>
      )}
    </section>
  );
}
