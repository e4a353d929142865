import { Activity, ShieldCheck, ShieldQuestion } from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import { topicText } from '#contract/event-topics.ts';
import type { EventRow } from '#contract/webhooks.ts';
import { CustomerCell } from '#renderer/shared/case/CustomerCell.tsx';
import { type WindowedRowProps, WindowedTable } from '#renderer/shared/windowed/WindowedTable.tsx';
import { formatCompactDateTime as formatCompact, formatDateTime } from '#renderer/ui/time.tsx';
import { useEventLogStore } from './event-log-store.ts';

const ROW_HEIGHT = 40;
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
      rowClass="log-row event-row"
      rowHeight={ROW_HEIGHT}
      pages={pages}
      total={total}
      queryVersion={queryVersion}
      showRange={showRange}
      rowKey={(row) => row.id}
      renderRow={(row, { index, style }) => <EventLogRow row={row} index={index} style={style} />}
      empty={{
        icon: Activity,
        title: 'No events received yet',
        text: 'The service’s events appear here as they arrive.',
      }}
      filtered={{ on: filtered, noun: 'events' }}
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
      className="log-row event-row log-row-openable"
      style={style}
      onClick={(event) => {
        if (!(event.target as Element).closest('button')) open();
      }}
    >
      <td>
        <time
          dateTime={row.created}
          title={`Sent ${formatDateTime(row.created)}, received ${formatDateTime(row.receivedAt)}`}
        >
          {formatCompact(row.created)}
        </time>
      </td>
      <td className="event-topic">
        <button type="button" className="link-button" title={`${row.topic}: open its detail`} onClick={open}>
          {topicText(row.topic)}
        </button>
      </td>
      <CustomerCell id={row.customerId} name={row.customerName} />
      <td className="event-signature">
        {row.signatureVerified ? (
          <>
            <ShieldCheck aria-hidden="true" className="event-signature-icon event-signature-verified" />{' '}
            Verified
          </>
        ) : (
          <span title="Fetched from the service while catching up, not delivered signed">
            <ShieldQuestion aria-hidden="true" className="event-signature-icon" /> Fetched
          </span>
        )}
      </td>
      <td className="event-duplicates">{row.duplicatesSeen}</td>
    </tr>
  );
}
