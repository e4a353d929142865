import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { topicText } from '../../../../contract/event-topics.ts';
import type { EventRow } from '../../../../contract/webhooks.ts';
import { useAppStore } from '../../store.ts';
import { formatDateTime } from '../../ui/time.tsx';
import { useWindowedList } from '../../ui/use-windowed-list.ts';
import { rowAt } from '../../ui/windowed-pages.ts';
import { useEventLogStore } from './event-log-store.ts';

/** Rows have one height, so the scroll height is exact without measuring anything. */
const ROW_HEIGHT = 44;
const OVERSCAN = 8;
const COLUMNS = ['Time', 'Topic', 'Customer', 'Signature', 'Duplicates'] as const;

/**
 * The event log as a virtualized table, newest first, as the queue's list is: only the rows on
 * screen (and a few around) are in the DOM, and the store holds only their pages. `aria-rowcount`
 * and `aria-rowindex` tell assistive technology where each row sits in the whole log.
 */
export function EventLogTable({ filtered }: { filtered: boolean }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { pages, total, queryVersion } = useEventLogStore(
    useShallow((state) => ({ pages: state.pages, total: state.total, queryVersion: state.queryVersion })),
  );
  const showRange = useEventLogStore((state) => state.showRange);
  const { virtualizer, items } = useWindowedList({
    total,
    scrollRef,
    rowHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
    showRange,
    queryVersion,
  });

  return (
    <div className="event-log-pane">
      {/* Chromium lets the keyboard reach and scroll a scroller by itself (Electron's too). */}
      <div ref={scrollRef} className="event-table-scroll">
        <table aria-label="Events" aria-rowcount={(total ?? 0) + 1} className="event-table">
          <thead>
            <tr aria-rowindex={1} className="event-row">
              {COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rowAt(pages, item.index);
              const place = { transform: `translateY(${item.start}px)`, height: ROW_HEIGHT };
              return row ? (
                <EventLogRow key={row.id} row={row} index={item.index} style={place} />
              ) : (
                <tr key={item.key} aria-rowindex={item.index + 2} className="event-row" style={place}>
                  <td colSpan={COLUMNS.length} className="event-row-loading">
                    Loading…
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {total === 0 && (
        <p className="event-log-empty">
          {filtered ? 'No events match this filter.' : 'No events received yet.'}
        </p>
      )}
    </div>
  );
}

interface EventLogRowProps {
  row: EventRow;
  index: number;
  style: { transform: string; height: number };
}

function EventLogRow({ row, index, style }: EventLogRowProps) {
  const highlighted = useEventLogStore((state) => state.highlightId === row.id);
  const open = () => void useEventLogStore.getState().openDetail(row.id);
  return (
    // The whole row opens the detail for a pointer; the topic's button is the keyboard's way in.
    <tr
      aria-rowindex={index + 2}
      aria-current={highlighted || undefined}
      className="event-row event-row-openable"
      style={style}
      onClick={(event) => {
        if (!(event.target as Element).closest('button')) open();
      }}
    >
      <td>
        <time dateTime={row.created} title={`Received ${formatDateTime(row.receivedAt)}`}>
          {formatDateTime(row.created)}
        </time>
      </td>
      <td className="event-topic">
        <button type="button" className="link-button" title={`${row.topic}: open its detail`} onClick={open}>
          {topicText(row.topic)}
        </button>
      </td>
      <td className="event-customer">
        {row.customerId ? <EventCustomer customerId={row.customerId} name={row.customerName} /> : '—'}
      </td>
      <td>
        {row.signatureVerified ? (
          'Verified'
        ) : (
          <span title="Fetched from the service while catching up, not delivered signed">Fetched</span>
        )}
      </td>
      <td className="event-duplicates">{row.duplicatesSeen}</td>
    </tr>
  );
}

/** The customer an event names: opens it when Vetted knows it (the filter narrows the log to it). */
function EventCustomer({ customerId, name }: { customerId: string; name: string | null }) {
  return name ? (
    <button
      type="button"
      className="link-button"
      title="Open this customer"
      onClick={() => useAppStore.getState().openCustomer(customerId)}
    >
      {name}
    </button>
  ) : (
    <code title="Not a customer Vetted follows">{customerId}</code>
  );
}
