// Draws a gathered case file as a PDF (../pdf/document.ts: PDFKit, fonts embedded, pages numbered). Every date
// in the file (its metadata, the attachment's) is the production time given, so the same case at the same
// moment gives the same bytes, and its pages the same images.
import { makePdf } from '../pdf/document.ts';
import { when } from '../pdf/draw.ts';
import type { CaseFileData } from './case-file-data.ts';
import { drawSections } from './case-file-sections.ts';

/** The PDF's bytes and its page count. */
export async function renderCaseFile(data: CaseFileData): Promise<{ bytes: Buffer; pages: number }> {
  const at = new Date(data.produced.at);
  return makePdf(
    {
      pageSize: data.pageSize,
      at,
      title: `Case file: customer ${data.customer.id}`,
      author: data.produced.by,
      subject: 'A customer’s case as Vetted holds it, with its audit entries',
      creator: `Vetted ${data.produced.version}`,
      footer: `Vetted case file · customer ${data.customer.id} · produced ${when(data.produced.at)}`,
    },
    (doc) => {
      // The customer's audit entries travel inside the file, as the Audit screen exports them, for verify-audit.
      doc.file(Buffer.from(data.audit.attachment.content, 'utf8'), {
        name: data.audit.attachment.fileName,
        type: 'application/jsonl',
        description: 'This customer’s audit entries and the chain’s head, for verify-audit --file',
        creationDate: at,
        modifiedDate: at,
      });
      drawSections(doc, data);
    },
  );
}
