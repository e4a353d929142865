import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { topicText } from '../../../../contract/event-topics.ts';
import { CustomerIdFilter } from '../../ui/CustomerIdFilter.tsx';
import { useEventLogStore } from './event-log-store.ts';

/**
 * The event log's one filter: a topic and a customer. What it narrows to is said in words beside it,
 * with the one way back ("Clear filter") right there.
 */
export function EventFilters() {
  const id = useId();
  const { topic, customerId, topics } = useEventLogStore(
    useShallow((state) => ({ topic: state.topic, customerId: state.customerId, topics: state.topics })),
  );
  const { setTopic, setCustomerId, clearFilter } = useEventLogStore.getState();
  // The chosen topic stays listed even before the log has answered with its topics.
  const options = topic && !topics.includes(topic) ? [topic, ...topics] : topics;
  const active = activeFilterText(topic, customerId.trim());
  return (
    <fieldset className="event-log-filters">
      <legend className="visually-hidden">Filter</legend>
      <label htmlFor={`${id}-topic`}>Topic</label>
      <select id={`${id}-topic`} value={topic} onChange={(event) => setTopic(event.target.value)}>
        <option value="">All topics</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {topicText(name)}
          </option>
        ))}
      </select>
      <CustomerIdFilter value={customerId} onChange={setCustomerId} />
      {active && (
        <>
          <output className="event-log-active-filter" htmlFor={`${id}-topic`}>
            {active}
          </output>
          <button type="button" onClick={clearFilter}>
            Clear filter
          </button>
        </>
      )}
    </fieldset>
  );
}

function activeFilterText(topic: string, customerId: string): string | null {
  const parts = [topic ? topicText(topic) : null, customerId ? `customer ${customerId}` : null].filter(
    Boolean,
  );
  return parts.length > 0 ? `Showing only: ${parts.join(', ')}` : null;
}
