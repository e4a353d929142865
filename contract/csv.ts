// CSV as every part of Vetted writes it (main's exports, the renderer's trends tables): as RFC 4180 writes it
// (CRLF, quotes doubled), for spreadsheets; a cell that a spreadsheet would run as a formula (=, +, -, @, tab,
// CR first) is prefixed with an apostrophe, so an export of what customers or the service typed cannot run
// anything on the reviewer's machine (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export type CsvValue = string | number | boolean | null | undefined;

/** A header line and one line per record, every line ending in CRLF. */
export function toCsv<T>(
  columns: ReadonlyArray<{ header: string; value: (row: T) => CsvValue }>,
  rows: readonly T[],
): string {
  const line = (cells: CsvValue[]) => `${cells.map(cell).join(',')}\r\n`;
  return (
    line(columns.map((column) => column.header)) +
    rows.map((row) => line(columns.map((column) => column.value(row)))).join('')
  );
}

/** `vetted-audit-2026-11-23.csv`: what was exported, and when; only safe characters. */
export function exportFileName(
  parts: ReadonlyArray<string | undefined>,
  extension: string,
  now: Date,
): string {
  const stem = [...parts, now.toISOString().slice(0, 10)].filter(Boolean).join('-');
  return `${stem.replace(/[^\w.-]+/g, '_')}.${extension}`;
}
