import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AuditRow } from '../../../../contract/case.ts';
import { useAppStore } from '../../store.ts';
import { formatDateTime } from '../../ui/time.tsx';
import { useWindowedList } from '../../ui/use-windowed-list.ts';
import { rowAt } from '../../ui/windowed-pages.ts';
import { useAuditStore } from './audit-store.ts';

const ROW_HEIGHT = 44;
const OVERSCAN = 8;
const COLUMNS = ['When', 'Who', 'What', 'Customer', 'Outcome', 'Detail'] as const;

/** The audit log as a virtualized table, newest first: only the rows on screen are in the DOM. */
export function AuditTable({ filtered }: { filtered: boolean }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { pages, total, queryVersion } = useAuditStore(
    useShallow((state) => ({ pages: state.pages, total: state.total, queryVersion: state.queryVersion })),
  );
  const showRange = useAuditStore((state) => state.showRange);
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
      <div ref={scrollRef} className="event-table-scroll">
        <table aria-label="Audit log" aria-rowcount={(total ?? 0) + 1} className="event-table audit-table">
          <thead>
            <tr aria-rowindex={1} className="event-row audit-row">
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
                <AuditTableRow key={row.seq} row={row} index={item.index} style={place} />
              ) : (
                <tr
                  key={item.key}
                  aria-rowindex={item.index + 2}
                  className="event-row audit-row"
                  style={place}
                >
                  <td colSpan={COLUMNS.length}>Loading…</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {total === 0 && (
        <p className="event-log-empty">
          {filtered ? 'No entries match this filter.' : 'Nothing audited yet.'}
        </p>
      )}
    </div>
  );
}

function AuditTableRow({
  row,
  index,
  style,
}: {
  row: AuditRow;
  index: number;
  style: { transform: string; height: number };
}) {
  return (
    <tr aria-rowindex={index + 2} className="event-row audit-row" style={style}>
      <td>
        <time dateTime={row.at}>{formatDateTime(row.at)}</time>
      </td>
      <td>{row.actor || <span className="masked">Not recorded</span>}</td>
      <td title={row.action}>{row.what}</td>
      <td className="event-customer">
        {row.customerId ? (
          <button
            type="button"
            className="link-button"
            title="Open this customer"
            onClick={() => useAppStore.getState().openCustomer(row.customerId ?? '')}
          >
            <code>{row.customerId.slice(0, 8)}…</code>
            <span className="visually-hidden"> Open customer {row.customerId}</span>
          </button>
        ) : (
          '—'
        )}
      </td>
      <td>{row.outcome}</td>
      <td className="audit-detail" title={row.detail ?? undefined}>
        {row.detail ?? ''}
      </td>
    </tr>
  );
}
