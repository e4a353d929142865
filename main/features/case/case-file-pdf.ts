// Draws a gathered case file as a PDF with PDFKit (pure JavaScript, run in main: the same in Electron and in
// browser mode). Deterministic: every date in the file (its metadata, the attachment's) is the production
// time given, so the same case at the same moment gives the same bytes, and its pages the same images.
import PDFDocument from 'pdfkit';
import type { CaseFileData } from './case-file-data.ts';
import { MARGIN, type Pdf, when } from './case-file-draw.ts';
import { caseFileFonts } from './case-file-fonts.ts';
import { drawSections } from './case-file-sections.ts';

const FOOTER_GAP = 30;

function openDocument(data: CaseFileData): Pdf {
  const at = new Date(data.produced.at);
  const doc = new PDFDocument({
    size: data.pageSize === 'A4' ? 'A4' : 'LETTER',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_GAP, left: MARGIN, right: MARGIN },
    bufferPages: true,
    lang: 'en',
    displayTitle: true,
    info: {
      Title: `Case file: customer ${data.customer.id}`,
      Author: data.produced.by,
      Subject: 'A customer’s case as Vetted holds it, with its audit entries',
      Creator: `Vetted ${data.produced.version}`,
      Producer: 'Vetted (PDFKit)',
      CreationDate: at,
      ModDate: at,
    },
  });
  const fonts = caseFileFonts();
  doc.registerFont('body', fonts.body);
  doc.registerFont('bold', fonts.bold);
  doc.font('body');
  return doc;
}

/** "Page 2 of 5" and what the file is, at the foot of every page, once the count is known. */
function drawFooters(doc: Pdf, data: CaseFileData): number {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    // Inside the bottom margin: PDFKit would start a page for text below it.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - 10;
    const width = doc.page.width - 2 * MARGIN;
    doc.font('body').fontSize(8).fillColor('#555555');
    doc.text(
      `Vetted case file · customer ${data.customer.id} · produced ${when(data.produced.at)}`,
      MARGIN,
      y,
      {
        width,
        lineBreak: false,
      },
    );
    doc.text(`Page ${index - start + 1} of ${count}`, MARGIN, y, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  return count;
}

/** The PDF's bytes and its page count. */
export async function renderCaseFile(data: CaseFileData): Promise<{ bytes: Buffer; pages: number }> {
  const doc = openDocument(data);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const at = new Date(data.produced.at);
  // The customer's audit entries travel inside the file, as the Audit screen exports them, for verify-audit.
  doc.file(Buffer.from(data.audit.attachment.content, 'utf8'), {
    name: data.audit.attachment.fileName,
    type: 'application/jsonl',
    description: 'This customer’s audit entries and the chain’s head, for verify-audit --file',
    creationDate: at,
    modifiedDate: at,
  });
  drawSections(doc, data);
  const pages = drawFooters(doc, data);
  doc.end();
  await ended;
  return { bytes: Buffer.concat(chunks), pages };
}
