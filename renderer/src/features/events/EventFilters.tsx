import { X } from 'lucide-react';
import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { topicText } from '#contract/event-topics.ts';
import { CustomerIdFilter } from '#renderer/shared/case/CustomerIdFilter.tsx';
import { Button } from '#renderer/ui/Button.tsx';
import { Select } from '#renderer/ui/Select.tsx';
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
    <fieldset className="filter-bar log-filters">
      <legend className="visually-hidden">Filter</legend>
      <span className="filter-item">
        <label htmlFor={`${id}-topic`}>Topic</label>
        <Select id={`${id}-topic`} value={topic} onChange={(event) => setTopic(event.target.value)}>
          <option value="">All topics</option>
          {options.map((name) => (
            <option key={name} value={name}>
              {topicText(name)}
            </option>
          ))}
        </Select>
      </span>
      <span className="filter-item">
        <CustomerIdFilter value={customerId} onChange={setCustomerId} />
      </span>
      {active && (
        <>
          <output className="log-active-filter" htmlFor={`${id}-topic`}>
            {active}
          </output>
          <Button size="sm" weight="quiet" icon={X} onClick={clearFilter}>
            Clear filter
          </Button>
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
