import { useShallow } from 'zustand/react/shallow';
import { topicText } from '../../../../contract/event-topics.ts';
import type { EventRow } from '../../../../contract/webhooks.ts';
import { useAppStore } from '../../store.ts';
import { formatDateTime } from '../../ui/time.tsx';
import { type WindowedRowProps, WindowedTable } from '../../ui/WindowedTable.tsx';
import { useEventLogStore } from './event-log-store.ts';

const ROW_HEIGHT = 44;
const COLUMNS = ['Time', 'Topic', 'Customer', 'Signature', 'Duplicates'] as const;

/** The event log, newest first, as a windowed table, as the queue's list is. */
export function EventLogTable({ filtered }: { filtered: boolean }) {
  const { pages, total, queryVersion } = useEventLogStore(
    useShallow((state) => ({ pages: state.pages, total: state.total, queryVersion: state.queryVersion })),
  );
  const showRange = useEventLogStore((state) => state.showRange);
  return (
    <WindowedTable
      label="Events"
      columns={COLUMNS}
      rowClass="event-row"
      rowHeight={ROW_HEIGHT}
      pages={pages}
      total={total}
      queryVersion={queryVersion}
      showRange={showRange}
      rowKey={(row) => row.id}
      renderRow={(row, { index, style }) => <EventLogRow row={row} index={index} style={style} />}
      empty={filtered ? 'No events match this filter.' : 'No events received yet.'}
    />
  );
}

interface EventLogRowProps {
  row: EventRow;
  index: number;
  style: WindowedRowProps['style'];
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
