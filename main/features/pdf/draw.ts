// The few ways Vetted's PDFs put words on a page (the case file, the period report): a title, a section's
// heading, labelled facts, a dated row, a paragraph. PDFKit flows text and starts pages; these keep a heading
// with what follows it.
import type PDFDocument from 'pdfkit';

/** One dated line: a moment, who or what, and the words. */
export interface DatedRow {
  at: string;
  who: string;
  what: string;
  detail: string | null;
}

export const MARGIN = 50;

export type Pdf = InstanceType<typeof PDFDocument>;

export const INK = '#111111';
export const QUIET = '#555555';

/** "2026-11-29 14:03:07 UTC": one zone for every reader of the file. */
export function when(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export const width = (doc: Pdf) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** Starts a page unless `height` points still fit on this one. */
export function keepRoom(doc: Pdf, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

export function title(doc: Pdf, text: string): void {
  doc
    .font('bold')
    .fontSize(18)
    .fillColor(INK)
    .text(text, { width: width(doc) });
  doc.moveDown(0.3);
}

export function heading(doc: Pdf, text: string): void {
  doc.moveDown(0.8);
  keepRoom(doc, 60);
  doc
    .font('bold')
    .fontSize(13)
    .fillColor(INK)
    .text(text, doc.page.margins.left, doc.y, { width: width(doc) });
  const y = doc.y + 2;
  doc
    .moveTo(doc.page.margins.left, y)
    .lineTo(doc.page.margins.left + width(doc), y)
    .lineWidth(0.5)
    .strokeColor('#999999')
    .stroke();
  doc.y = y + 6;
}

export function paragraph(doc: Pdf, text: string, options: { quiet?: boolean; size?: number } = {}): void {
  doc
    .font('body')
    .fontSize(options.size ?? 10)
    .fillColor(options.quiet ? QUIET : INK)
    .text(text, doc.page.margins.left, doc.y, { width: width(doc) });
  doc.moveDown(0.3);
}

/** Label and value on one line each pair, the labels in a column of their own. */
export function facts(doc: Pdf, pairs: ReadonlyArray<{ label: string; value: string }>): void {
  const left = doc.page.margins.left;
  const labelWidth = 130;
  for (const { label, value } of pairs) {
    keepRoom(doc, 14);
    const y = doc.y;
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(QUIET)
      .text(label, left, y, { width: labelWidth - 8 });
    const labelEnd = doc.y;
    doc
      .font('body')
      .fillColor(INK)
      .text(value, left + labelWidth, y, { width: width(doc) - labelWidth });
    doc.y = Math.max(doc.y, labelEnd) + 2;
  }
  doc.x = left;
}

/** A dated line: when and who small above, what happened, and its detail quieter below. */
export function row(doc: Pdf, { at, who, what, detail }: DatedRow): void {
  keepRoom(doc, 40);
  const left = doc.page.margins.left;
  doc
    .font('body')
    .fontSize(8)
    .fillColor(QUIET)
    .text(`${when(at)} · ${who}`, left, doc.y, { width: width(doc) });
  doc
    .font('body')
    .fontSize(10)
    .fillColor(INK)
    .text(what, { width: width(doc) });
  if (detail)
    doc
      .fontSize(9)
      .fillColor(QUIET)
      .text(detail, { width: width(doc) });
  doc.moveDown(0.4);
}

/** Every row, or what an empty section means. */
export function rows(doc: Pdf, items: readonly DatedRow[], none: string): void {
  if (items.length === 0) paragraph(doc, none, { quiet: true });
  for (const item of items) row(doc, item);
}

/** The administrator's command that shows the chain still holds every entry up to `head` (seq:hash). */
export function verifyHeadCommand(doc: Pdf, head: string): void {
  paragraph(
    doc,
    `npm run team -- verify-audit --database <the team store> --key-file <the team key file> --head ${head}`,
    { size: 9 },
  );
}
