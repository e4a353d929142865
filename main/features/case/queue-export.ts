// The queue as shown (section and search) as CSV. Names and e-mails are masked unless the reviewer gave a
// reason to export them in full, which the audit log records like any reveal.
import type { ExportFile, QueueExportInput } from '#contract/case.ts';
import { exportFileName, toCsv } from '#contract/csv.ts';
import type { QueueRow } from '#contract/queue.ts';
import type { Journal } from '#main/data/journal/index.ts';

const PAGE = 200;

/** "Jane Doe" → "J••• D•••": enough to tell rows apart, not enough to name anyone. */
export function maskName(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `${[...word][0]}•••`)
    .join(' ');
}

/** "jane.doe@example.com" → "j•••@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 1 ? '•••' : `${[...email][0]}•••${email.slice(at)}`;
}

export async function exportQueue(
  journal: Journal,
  input: QueueExportInput,
  now = new Date(),
): Promise<ExportFile> {
  const { section, search, revealReason } = input;
  const rows: QueueRow[] = [];
  for (let total = Number.POSITIVE_INFINITY; rows.length < total; ) {
    const window = await journal.queue.window({ section, search, offset: rows.length, limit: PAGE });
    total = window.total;
    rows.push(...window.rows);
    if (window.rows.length === 0) break;
  }
  const full = revealReason !== undefined;
  if (full) {
    // Recorded before the file is made, in one unit: a team store refuses a lead's action from a reviewer's
    // login (the names are then never put in a file), whatever the desk checked.
    await journal.transaction(async (tx) => {
      await tx.audit.record({
        action: 'personal.reveal',
        outcome: 'ok',
        detail: `Queue export of ${rows.length} rows with names in full. Reason: ${revealReason}`,
      });
      await tx.audit.record({
        action: 'queue.exportNames',
        outcome: 'ok',
        detail: `${rows.length} rows, names in full`,
      });
    });
  } else {
    await journal.audit.record({
      action: 'queue.export',
      outcome: 'ok',
      detail: `${rows.length} rows, names masked`,
    });
  }
  const content = toCsv<QueueRow>(
    [
      { header: 'Customer ID', value: (row) => row.id },
      { header: 'Name', value: (row) => (full ? row.name : maskName(row.name)) },
      { header: 'Email', value: (row) => (full ? row.email : maskEmail(row.email)) },
      { header: 'Status', value: (row) => row.status },
      { header: 'Section', value: (row) => row.section },
      { header: 'In status since', value: (row) => row.statusSince },
      { header: 'Gone from the service', value: (row) => (row.gone ? 'yes' : 'no') },
      { header: 'Note', value: (row) => row.note },
    ],
    rows,
  );
  const fileName = exportFileName(['vetted-queue', section, search.trim() || undefined], 'csv', now);
  return { fileName, mimeType: 'text/csv', content, count: rows.length };
}
