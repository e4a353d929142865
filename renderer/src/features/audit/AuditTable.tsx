import { ScrollText } from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import type { AuditRow } from '#contract/case.ts';
import { CustomerCell } from '#renderer/shared/case/CustomerCell.tsx';
import { type WindowedRowProps, WindowedTable } from '#renderer/shared/windowed/WindowedTable.tsx';
import { Moment } from '#renderer/ui/time.tsx';
import { useAuditStore } from './audit-store.ts';

const ROW_HEIGHT = 40;
const COLUMNS = ['When', 'Who', 'What', 'Customer', 'Outcome', 'Detail'] as const;
const ROW_CLASS = 'log-row audit-row';

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
      empty={{
        icon: ScrollText,
        title: 'Nothing audited yet',
        text: 'What is done at this desk is recorded here.',
      }}
      filtered={{ on: filtered, noun: 'entries' }}
    />
  );
}

function AuditTableRow({ row, index, style }: { row: AuditRow } & WindowedRowProps) {
  return (
    <tr aria-rowindex={index + 2} className={ROW_CLASS} style={style}>
      <td>
        <Moment at={row.at} />
      </td>
      <td title={row.actor || undefined}>{row.actor || <span className="masked">Not recorded</span>}</td>
      <td title={row.action}>{row.what}</td>
      <CustomerCell id={row.customerId} name={row.customerName} />
      <td>{row.outcome}</td>
      <td className="audit-detail" title={row.detail ?? undefined}>
        {row.detail ?? ''}
      </td>
    </tr>
  );
}
