import { QUEUE_SORT_TITLES, type QueueSort } from '../../../../contract/queue-view.ts';
import { useQueueStore } from './queue-store.ts';

const COLUMNS: { title: string; sort?: QueueSort; direction?: 'ascending' | 'descending'; hint?: string }[] =
  [
    { title: QUEUE_SORT_TITLES.name, sort: 'name', direction: 'ascending', hint: 'A to Z' },
    { title: 'Status' },
    { title: QUEUE_SORT_TITLES.waiting, sort: 'waiting', direction: 'descending', hint: 'longest first' },
    { title: QUEUE_SORT_TITLES.lastChange, sort: 'lastChange', direction: 'ascending', hint: 'newest first' },
    { title: 'Note' },
  ];

/** The column headers; those that sort say which order is in force (aria-sort) and change it on a click. */
export function QueueGridHeader() {
  const sort = useQueueStore((state) => state.sort);
  const setSort = useQueueStore((state) => state.setSort);
  return (
    <thead className="queue-grid-head">
      <tr aria-rowindex={1} className="queue-row queue-row-head">
        {COLUMNS.map((column) => (
          <th
            key={column.title}
            scope="col"
            aria-sort={column.sort && column.sort === sort ? column.direction : undefined}
          >
            {column.sort ? (
              <button
                type="button"
                title={`Sort by ${column.title.toLowerCase()}, ${column.hint}`}
                onClick={() => column.sort && setSort(column.sort)}
              >
                {column.title}
                {column.sort === sort && (
                  <span aria-hidden="true">{column.direction === 'ascending' ? ' ▲' : ' ▼'}</span>
                )}
              </button>
            ) : (
              column.title
            )}
          </th>
        ))}
      </tr>
    </thead>
  );
}
