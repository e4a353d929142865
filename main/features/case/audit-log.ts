// The Audit screen's reads and its exports (CSV, JSON Lines), made in main so the renderer only saves them.
// Exports carry the audit chain (main/data/journal/audit-export.ts), so an examiner can check them offline.

import { actionWords } from '#contract/audit-actions.ts';
import type { AuditFilter, AuditRow, AuditWindow, ExportFile, ExportFormat } from '#contract/case.ts';
import { exportFileName, toCsv } from '#contract/csv.ts';
import {
  type AuditEntry,
  type AuditHead,
  entryRecord,
  headRecord,
  type Journal,
  type LinkedAuditEntry,
} from '#main/data/journal/index.ts';
import { namesOf } from '../webhooks/ingest.ts';

type CsvRow = AuditRow & { chainHash: string };

const COLUMNS: ReadonlyArray<{ header: string; value: (row: CsvRow) => string | number | null }> = [
  { header: 'Entry', value: (row) => row.seq },
  { header: 'When', value: (row) => row.at },
  { header: 'Who', value: (row) => row.actor },
  { header: 'What', value: (row) => row.what },
  { header: 'Action', value: (row) => row.action },
  { header: 'Customer', value: (row) => row.customerId },
  { header: 'Outcome', value: (row) => row.outcome },
  { header: 'Detail', value: (row) => row.detail },
  // Ties a row read in a spreadsheet to the chain the JSON Lines export verifies.
  { header: 'Chain hash', value: (row) => row.chainHash },
];

export function toAuditRow({ seq, at, actor, action, customerId, outcome, detail }: AuditEntry): AuditRow {
  return { seq, at, actor, action, customerId, outcome, detail, what: actionWords(action) };
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

/** Entries read per query: a long log is exported page by page. */
const PAGE = 1_000;

/** Every entry the filter matches up to `head`, oldest first (the chain's order). */
export async function linkedUpTo(journal: Journal, filter: AuditFilter, head: AuditHead) {
  const entries: LinkedAuditEntry[] = [];
  for (let afterSeq = 0; ; ) {
    const page = await journal.audit.linked({ ...filter, afterSeq, upToSeq: head.seq, limit: PAGE });
    entries.push(...page);
    if (page.length < PAGE) return entries;
    afterSeq = page[page.length - 1]!.seq;
  }
}

/**
 * Every entry the filter matches, oldest first, each with its place in the audit chain, up to the chain's
 * head when the export began (read first: every entry up to it has committed); JSON Lines ends with that
 * head, for `verify-audit --file`. The export itself is audited, after it.
 */
export async function exportAudit(
  journal: Journal,
  { filter, format }: { filter: AuditFilter; format: ExportFormat },
  now = new Date(),
): Promise<ExportFile> {
  const head = await journal.audit.head();
  const entries = await linkedUpTo(journal, filter, head);
  await journal.audit.record({
    action: 'audit.export',
    outcome: 'ok',
    detail: `${format}, ${entries.length} entries`,
  });
  const fileName = exportFileName(
    ['vetted-audit', filter.actor, filter.action, filter.customerId],
    format,
    now,
  );
  const count = entries.length;
  if (format === 'csv') {
    const rows = entries.map((entry) => ({ ...toAuditRow(entry), chainHash: entry.link.chainHash }));
    return { fileName, mimeType: 'text/csv', content: toCsv(COLUMNS, rows), count };
  }
  const lines = entries.map((entry) => entryRecord(entry, { what: actionWords(entry.action) }));
  return {
    fileName,
    mimeType: 'application/jsonl',
    content: lines.join('') + headRecord(head, count, filter),
    count,
  };
}
