// A table in a PDF: a bold header row, then one line per row, the columns' widths as shares of the page's. A
// table that runs over a page starts the next with its header again, so every page reads on its own.
import { INK, keepRoom, type Pdf, paragraph, QUIET, width } from './draw.ts';

export interface Column {
  header: string;
  /** Its share of the line's width (the shares of a table add up to 1). */
  share: number;
  /** Figures are right-aligned, so their digits line up. */
  align?: 'left' | 'right';
}

const ROW_GAP = 3;

function line(doc: Pdf, columns: readonly Column[], cells: readonly string[], bold: boolean): void {
  const left = doc.page.margins.left;
  const total = width(doc);
  const top = doc.y;
  let x = left;
  let bottom = top;
  doc
    .font(bold ? 'bold' : 'body')
    .fontSize(bold ? 8 : 9)
    .fillColor(bold ? QUIET : INK);
  for (const [index, column] of columns.entries()) {
    const cellWidth = column.share * total;
    doc.text(cells[index] ?? '', x + 2, top, { width: cellWidth - 4, align: column.align ?? 'left' });
    bottom = Math.max(bottom, doc.y);
    x += cellWidth;
  }
  doc.y = bottom + ROW_GAP;
  doc
    .moveTo(left, doc.y - 1.5)
    .lineTo(left + total, doc.y - 1.5)
    .lineWidth(bold ? 0.6 : 0.25)
    .strokeColor(bold ? '#777777' : '#BBBBBB')
    .stroke();
}

/** The header and every row; `none` says what an empty table means. */
export function table(
  doc: Pdf,
  columns: readonly Column[],
  rows: ReadonlyArray<readonly string[]>,
  none: string,
): void {
  if (rows.length === 0) {
    paragraph(doc, none, { quiet: true });
    return;
  }
  keepRoom(doc, 40);
  line(
    doc,
    columns,
    columns.map((column) => column.header),
    true,
  );
  for (const cells of rows) {
    if (doc.y + 16 > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      line(
        doc,
        columns,
        columns.map((column) => column.header),
        true,
      );
    }
    line(doc, columns, cells, false);
  }
  doc.x = doc.page.margins.left;
  doc.moveDown(0.4);
}
