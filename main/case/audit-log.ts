// The Audit screen's reads and its exports (CSV, JSON Lines), made in main so the renderer only saves them.
import type { AuditFilter, AuditRow, AuditWindow, ExportFile, ExportFormat } from '../../contract/case.ts';
import type { AuditEntry, Journal } from '../journal/index.ts';
import { namesOf } from '../webhooks/ingest.ts';
import { exportFileName, toCsv } from './csv.ts';
import { actionWords } from './words.ts';

const COLUMNS: ReadonlyArray<{ header: string; value: (row: AuditRow) => string | number | null }> = [
  { header: 'When', value: (row) => row.at },
  { header: 'Who', value: (row) => row.actor },
  { header: 'What', value: (row) => row.what },
  { header: 'Action', value: (row) => row.action },
  { header: 'Customer', value: (row) => row.customerId },
  { header: 'Outcome', value: (row) => row.outcome },
  { header: 'Detail', value: (row) => row.detail },
];

export function toAuditRow(entry: AuditEntry): AuditRow {
  return { ...entry, what: actionWords(entry.action) };
}

export async function auditWindow(
  journal: Journal,
  { filter, offset, limit }: { filter: AuditFilter; offset: number; limit: number },
): Promise<AuditWindow> {
  const [entries, total, facets] = await Promise.all([
    journal.audit.list({ ...filter, offset, limit }),
    journal.audit.count(filter),
    journal.audit.facets(),
  ]);
  const name = await namesOf(journal, entries);
  return {
    rows: entries.map((entry) => ({ ...toAuditRow(entry), customerName: name(entry.customerId) })),
    total,
    actors: facets.actors,
    actions: facets.actions.map((action) => ({ action, what: actionWords(action) })),
  };
}

/** Every entry the filter matches, newest first; the export itself is audited. */
export async function exportAudit(
  journal: Journal,
  { filter, format }: { filter: AuditFilter; format: ExportFormat },
  now = new Date(),
): Promise<ExportFile> {
  const total = await journal.audit.count(filter);
  const rows = (await journal.audit.list({ ...filter, limit: Math.max(total, 1), offset: 0 })).map(
    toAuditRow,
  );
  await journal.audit.record({
    action: 'audit.export',
    outcome: 'ok',
    detail: `${format}, ${rows.length} entries`,
  });
  const fileName = exportFileName(
    ['vetted-audit', filter.actor, filter.action, filter.customerId],
    format,
    now,
  );
  return format === 'csv'
    ? { fileName, mimeType: 'text/csv', content: toCsv(COLUMNS, rows), count: rows.length }
    : {
        fileName,
        mimeType: 'application/jsonl',
        content: rows.map((row) => `${JSON.stringify(row)}\n`).join(''),
        count: rows.length,
      };
}
