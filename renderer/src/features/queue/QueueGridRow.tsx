import { AlarmClock, Ban, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import type { QueueRow } from '#contract/queue.ts';
import { isSampleEmail } from '#contract/sandbox-panel.ts';
import { statusLook } from '#renderer/shared/case/status-look.ts';
import { ClaimTag } from '#renderer/shared/team/ClaimTag.tsx';
import { StatusBadge } from '#renderer/ui/StatusBadge.tsx';
import { Tag } from '#renderer/ui/Tag.tsx';
import { TimeSince } from '#renderer/ui/time.tsx';
import type { ColumnId } from './queue-columns.ts';
import { SampleTag } from './SampleCustomersOffer.tsx';

export const rowId = (id: string) => `queue-row-${id}`;

interface QueueGridRowProps {
  row: QueueRow;
  index: number;
  columns: readonly ColumnId[];
  selected: boolean;
  overdue: boolean;
  now: number;
  top: number;
  height: number;
  onPick(): void;
}

/** One case in the queue's grid: its cells line up under the column headers shown. */
export function QueueGridRow({
  row,
  index,
  columns,
  selected,
  overdue,
  now,
  top,
  height,
  onPick,
}: QueueGridRowProps) {
  const classes = ['queue-row', row.gone && 'queue-row-gone', overdue && 'queue-row-overdue'].filter(Boolean);
  const look = statusLook(row.section, row.status);
  const note = row.latestNote ?? null;
  const cells: Record<ColumnId, () => ReactNode> = {
    name: () => {
      const second = row.gone ? (
        <Tag tone="danger" icon={Ban} title="The service answered “not found” for this customer">
          Gone from the service
        </Tag>
      ) : row.note ? (
        // The service's word on the case (why the last document was rejected): what triage needs, so it
        // takes the e-mail's place; the e-mail stays on hover and in the case.
        <span className="queue-row-note" title={`${row.note}\n${row.email}`}>
          <TriangleAlert aria-hidden="true" className="queue-row-note-icon" />
          {row.note}
        </span>
      ) : (
        <span className="queue-row-email">{row.email}</span>
      );
      return (
        <td key="name" className="queue-cell-name">
          <span className="queue-row-name">{row.name}</span>{' '}
          {row.claimedBy || isSampleEmail(row.email) ? (
            // Who holds it (or that it is a sample) leads the second line, the name keeping its own: the row
            // keeps its height.
            <span className="queue-row-held">
              {row.claimedBy ? <ClaimTag holder={row.claimedBy} /> : <SampleTag email={row.email} />} {second}
            </span>
          ) : (
            second
          )}
        </td>
      );
    },
    status: () => (
      <td key="status" className="queue-cell-status">
        <StatusBadge {...look} title={row.section === 'other' ? undefined : row.status} />
      </td>
    ),
    waiting: () => (
      <td key="waiting" className="queue-cell-waiting">
        <TimeSince since={row.statusSince} now={now} />
        {overdue && (
          <Tag tone="danger" icon={AlarmClock}>
            Overdue
          </Tag>
        )}
      </td>
    ),
    lastChange: () => (
      <td key="lastChange" className="queue-cell-change">
        {row.changedAt ? <TimeSince since={row.changedAt} now={now} /> : '—'}
      </td>
    ),
    note: () => (
      <td key="note" className="queue-cell-note" title={note ?? undefined}>
        {note}
      </td>
    ),
  };
  return (
    <tr
      id={rowId(row.id)}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={classes.join(' ')}
      style={{ transform: `translateY(${top}px)`, height }}
      onClick={onPick}
    >
      {columns.map((column) => cells[column]())}
    </tr>
  );
}
