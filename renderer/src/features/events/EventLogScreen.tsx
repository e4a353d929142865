import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CustomerIdFilter } from '../../ui/CustomerIdFilter.tsx';
import { ExportFileButton } from '../../ui/ExportFileButton.tsx';
import { useWatch } from '../../ui/watch.ts';
import { EventLogTable } from './EventLogTable.tsx';
import { filterOf, useEventLogStore } from './event-log-store.ts';
import { eventsFile } from './export-events.ts';

/** Every webhook event Vetted received, newest first, as the service sent it. */
export function EventLogScreen() {
  const { topic, customerId, total, problem } = useEventLogStore(
    useShallow((state) => ({
      topic: state.topic,
      customerId: state.customerId,
      total: state.total,
      problem: state.problem,
    })),
  );
  const filtered = Object.keys(filterOf({ topic, customerId })).length > 0;

  useWatch(useEventLogStore.getState().watch);

  return (
    <section className="event-log" aria-labelledby="event-log-title">
      <header className="event-log-header">
        <h2 id="event-log-title">Events</h2>
        <EventFilters />
        {/* What the filter shows (all of it, not only the rows loaded), as JSON Lines. */}
        <ExportFileButton
          label="Export JSON Lines"
          noun={{ one: 'event', many: 'events' }}
          make={async () => eventsFile(await useEventLogStore.getState().exportShown())}
        />
      </header>
      {/* Not a live region: while events pour in, it would speak over everything else. */}
      <p className="event-log-count">{total === null ? '' : countText(total, filtered)}</p>
      {problem && <p role="alert">{problem}</p>}
      <EventLogTable filtered={filtered} />
    </section>
  );
}

function countText(total: number, filtered: boolean): string {
  if (total === 1) return filtered ? '1 event matches' : '1 event';
  return filtered ? `${total} events match` : `${total} events`;
}

function EventFilters() {
  const id = useId();
  const { topic, customerId, topics } = useEventLogStore(
    useShallow((state) => ({ topic: state.topic, customerId: state.customerId, topics: state.topics })),
  );
  const { setTopic, setCustomerId, clearFilter } = useEventLogStore.getState();
  // The chosen topic stays listed even before the log has answered with its topics.
  const options = topic && !topics.includes(topic) ? [topic, ...topics] : topics;
  return (
    <div className="event-log-filters">
      <label htmlFor={`${id}-topic`}>Topic</label>
      <select id={`${id}-topic`} value={topic} onChange={(event) => setTopic(event.target.value)}>
        <option value="">All topics</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <CustomerIdFilter value={customerId} onChange={setCustomerId} />
      {(topic !== '' || customerId !== '') && (
        <button type="button" onClick={clearFilter}>
          Clear filters
        </button>
      )}
    </div>
  );
}
