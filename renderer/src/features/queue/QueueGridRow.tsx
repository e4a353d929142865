import { type QueueRow, SECTION_TITLES } from '../../../../contract/queue.ts';
import { TimeSince } from '../../ui/time.tsx';

export const rowId = (id: string) => `queue-row-${id}`;

interface QueueGridRowProps {
  row: QueueRow;
  index: number;
  selected: boolean;
  overdue: boolean;
  /** The whole queue is shown: each row says its section. */
  showSection: boolean;
  now: number;
  top: number;
  height: number;
  onPick(): void;
}

/** One case in the queue's grid: its cells line up under the column headers. */
export function QueueGridRow({
  row,
  index,
  selected,
  overdue,
  showSection,
  now,
  top,
  height,
  onPick,
}: QueueGridRowProps) {
  const classes = ['queue-row', row.gone && 'queue-row-gone', overdue && 'queue-row-overdue'].filter(Boolean);
  return (
    <tr
      id={rowId(row.id)}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={classes.join(' ')}
      style={{ transform: `translateY(${top}px)`, height }}
      onClick={onPick}
    >
      <td className="queue-cell-name">
        <span className="queue-row-name">{row.name}</span>{' '}
        <span className="queue-row-email">{row.email}</span>
      </td>
      <td className="queue-cell-status">
        {row.status}
        {showSection && <span className="queue-row-section"> · {SECTION_TITLES[row.section]}</span>}
        {row.gone && <span className="badge badge-gone"> gone</span>}
      </td>
      <td className="queue-cell-waiting">
        <TimeSince since={row.statusSince} now={now} />
        {overdue && (
          <span className="overdue-mark">
            {' '}
            <span aria-hidden="true">⚠</span> Overdue
          </span>
        )}
      </td>
      <td className="queue-cell-change">
        {row.changedAt ? <TimeSince since={row.changedAt} now={now} /> : '—'}
      </td>
      <td className="queue-cell-note">{row.note}</td>
    </tr>
  );
}
