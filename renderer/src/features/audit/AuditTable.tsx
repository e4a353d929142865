import { useShallow } from 'zustand/react/shallow';
import type { AuditRow } from '../../../../contract/case.ts';
import { useAppStore } from '../../store.ts';
import { formatDateTime } from '../../ui/time.tsx';
import { type WindowedRowProps, WindowedTable } from '../../ui/WindowedTable.tsx';
import { useAuditStore } from './audit-store.ts';

const ROW_HEIGHT = 44;
const COLUMNS = ['When', 'Who', 'What', 'Customer', 'Outcome', 'Detail'] as const;
const ROW_CLASS = 'event-row audit-row';

/** The audit log, newest first, as a windowed table: long logs cost only the rows on screen. */
export function AuditTable({ filtered }: { filtered: boolean }) {
  const { pages, total, queryVersion } = useAuditStore(
    useShallow((state) => ({ pages: state.pages, total: state.total, queryVersion: state.queryVersion })),
  );
  const showRange = useAuditStore((state) => state.showRange);
  return (
    <WindowedTable
      label="Audit log"
      columns={COLUMNS}
      rowClass={ROW_CLASS}
      rowHeight={ROW_HEIGHT}
      pages={pages}
      total={total}
      queryVersion={queryVersion}
      showRange={showRange}
      rowKey={(row) => row.seq}
      renderRow={(row, place) => <AuditTableRow row={row} {...place} />}
      empty={filtered ? 'No entries match this filter.' : 'Nothing audited yet.'}
    />
  );
}

function AuditTableRow({ row, index, style }: { row: AuditRow } & WindowedRowProps) {
  return (
    <tr aria-rowindex={index + 2} className={ROW_CLASS} style={style}>
      <td>
        <time dateTime={row.at}>{formatDateTime(row.at)}</time>
      </td>
      <td>{row.actor || <span className="masked">Not recorded</span>}</td>
      <td title={row.action}>{row.what}</td>
      <td className="event-customer">{row.customerId ? <CustomerLink id={row.customerId} /> : '—'}</td>
      <td>{row.outcome}</td>
      <td className="audit-detail" title={row.detail ?? undefined}>
        {row.detail ?? ''}
      </td>
    </tr>
  );
}

/** The customer's ID, shortened, opening its case. */
function CustomerLink({ id }: { id: string }) {
  return (
    <button
      type="button"
      className="link-button"
      title="Open this customer"
      onClick={() => useAppStore.getState().openCustomer(id)}
    >
      <code>{id.slice(0, 8)}…</code>
      <span className="visually-hidden"> Open customer {id}</span>
    </button>
  );
}
