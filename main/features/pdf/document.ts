// A PDF as Vetted makes one (the case file, the period report): PDFKit (pure JavaScript, run in main: the same in
// Electron and in browser mode), A4 or Letter, DejaVu embedded, every page numbered at its foot once the count
// is known. Deterministic: every date in the file (its metadata) is the production time given, so the same
// content at the same moment gives the same bytes, and its pages the same images.
import PDFDocument from 'pdfkit';
import type { PageSize } from '#contract/case-file.ts';
import { MARGIN, type Pdf } from './draw.ts';
import { pdfFonts } from './fonts.ts';

const FOOTER_GAP = 30;

export interface PdfOptions {
  pageSize: PageSize;
  /** The production time: the file's creation and modification dates. */
  at: Date;
  title: string;
  author: string;
  subject: string;
  /** "Vetted 1.2.3". */
  creator: string;
  /** What the file is, at the foot of every page beside its number. */
  footer: string;
}

function openPdf(options: PdfOptions): Pdf {
  const doc = new PDFDocument({
    size: options.pageSize === 'A4' ? 'A4' : 'LETTER',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_GAP, left: MARGIN, right: MARGIN },
    bufferPages: true,
    lang: 'en',
    displayTitle: true,
    info: {
      Title: options.title,
      Author: options.author,
      Subject: options.subject,
      Creator: options.creator,
      Producer: 'Vetted (PDFKit)',
      CreationDate: options.at,
      ModDate: options.at,
    },
  });
  const fonts = pdfFonts();
  doc.registerFont('body', fonts.body);
  doc.registerFont('bold', fonts.bold);
  doc.font('body');
  return doc;
}

/** "Page 2 of 5" and what the file is, at the foot of every page, once the count is known. */
function drawFooters(doc: Pdf, footer: string): number {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    // Inside the bottom margin: PDFKit would start a page for text below it.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - 10;
    const width = doc.page.width - 2 * MARGIN;
    doc.font('body').fontSize(8).fillColor('#555555');
    doc.text(footer, MARGIN, y, { width, lineBreak: false });
    doc.text(`Page ${index - start + 1} of ${count}`, MARGIN, y, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  return count;
}

/** Opens a document, lets `draw` fill it, numbers its pages: its bytes and its page count. */
export async function makePdf(
  options: PdfOptions,
  draw: (doc: Pdf) => void,
): Promise<{ bytes: Buffer; pages: number }> {
  const doc = openPdf(options);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  draw(doc);
  const pages = drawFooters(doc, options.footer);
  doc.end();
  await ended;
  return { bytes: Buffer.concat(chunks), pages };
}
