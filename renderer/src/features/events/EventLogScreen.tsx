import { useShallow } from 'zustand/react/shallow';
import { ExportFileButton } from '#renderer/shared/case/ExportFileButton.tsx';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { EventDetailDialog } from './EventDetailDialog.tsx';
import { EventFilters } from './EventFilters.tsx';
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
    <section className="log-screen event-log" aria-labelledby="event-log-title">
      <header className="screen-header">
        <h2 id="event-log-title">Events</h2>
        {/* Not a live region: while events pour in, it would speak over everything else. */}
        <p className="log-count">{total === null ? '' : countText(total, filtered)}</p>
        <div className="screen-tools">
          {/* What the filter shows (all of it, not only the rows loaded), as JSON Lines. */}
          <ExportFileButton
            label="Export JSON Lines"
            noun={{ one: 'event', many: 'events' }}
            make={async () => eventsFile(await useEventLogStore.getState().exportShown())}
          />
        </div>
      </header>
      <EventFilters />
      {problem && <p role="alert">{problem}</p>}
      <EventLogTable filtered={filtered} />
      <EventDetailDialog />
    </section>
  );
}

function countText(total: number, filtered: boolean): string {
  if (total === 1) return filtered ? '1 event matches' : '1 event';
  return filtered ? `${total} events match` : `${total} events`;
}
