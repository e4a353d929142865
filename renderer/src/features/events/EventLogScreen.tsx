import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ReasonButton } from '../../ui/ReasonButton.tsx';
import { useWatch } from '../../ui/watch.ts';
import { EventDetailDialog } from './EventDetailDialog.tsx';
import { EventFilters } from './EventFilters.tsx';
import { EventLogTable } from './EventLogTable.tsx';
import { filterOf, useEventLogStore } from './event-log-store.ts';
import { downloadEvents } from './export-events.ts';

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
        <ExportButton />
      </header>
      {/* Not a live region: while events pour in, it would speak over everything else. */}
      <p className="event-log-count">{total === null ? '' : countText(total, filtered)}</p>
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

/** Exports what the filter shows (all of it, not only the rows loaded) as JSON Lines. */
function ExportButton() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'done' | 'failed'; text: string } | null>(null);
  const onExport = async () => {
    setBusy(true);
    setResult(null);
    try {
      const { jsonl, count, filter } = await useEventLogStore.getState().exportShown();
      downloadEvents(jsonl, filter);
      setResult({ kind: 'done', text: `Exported ${count === 1 ? '1 event' : `${count} events`}.` });
    } catch (error) {
      setResult({
        kind: 'failed',
        text: `The export failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="event-log-export">
      <ReasonButton unavailable={null} busy={busy} onClick={() => void onExport()}>
        {busy ? 'Exporting…' : 'Export JSON Lines'}
      </ReasonButton>
      <span role="status">{result?.kind === 'done' && result.text}</span>
      {result?.kind === 'failed' && <span role="alert">{result.text}</span>}
    </span>
  );
}
