import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSize } from '#contract/case-file.ts';
import { verifyAuditExport } from '#main/data/journal/audit-export.ts';
import type { Journal } from '#main/data/journal/index.ts';
import type { CaseFileData } from '#main/features/case/case-file-data.ts';
import { gatherCaseFile } from '#main/features/case/case-file-gather.ts';
import { renderCaseFile } from '#main/features/case/case-file-pdf.ts';
import { expectPagesLikeBaselines, pdfText, poppler } from '#test/support/pdf-pages.ts';
import { CUSTOMER_ID, caseFileWorld, PRODUCED_AT } from './case-file-world.ts';

/**
 * The case file read as a person reads it: its text (poppler's pdftotext) and its pages as images (pdftoppm at
 * 50 dpi, against committed baselines; `UPDATE_BASELINES=1` writes them, to be looked at before committing).
 */

const BASELINES = path.join(import.meta.dirname, '__baselines__', 'case-file');
const work = mkdtempSync(path.join(os.tmpdir(), 'vetted-case-file-'));

describe('the case file', () => {
  let journal: Journal;
  let data: Omit<CaseFileData, 'pageSize' | 'produced'>;
  const pdfs = new Map<PageSize, { file: string; pages: number }>();

  beforeAll(async () => {
    const world = await caseFileWorld();
    journal = world.journal;
    const customer = await journal.customers.get(CUSTOMER_ID);
    if (!customer) throw new Error('The world has its customer.');
    data = await gatherCaseFile(world.sources, customer, { revealReason: null, now: world.now });
    for (const pageSize of ['A4', 'Letter'] as const) {
      const produced = {
        at: PRODUCED_AT,
        by: 'ada',
        desk: 'desk-7',
        mode: 'team' as const,
        version: '1.2.3',
      };
      const { bytes, pages } = await renderCaseFile({ ...data, pageSize, produced });
      const file = path.join(work, `case-${pageSize}.pdf`);
      writeFileSync(file, bytes);
      pdfs.set(pageSize, { file, pages });
    }
  });
  afterAll(async () => {
    await journal.close();
  });

  it('gathers every part of the case from the journal, oldest first', () => {
    expect(data.customer).toMatchObject({ id: CUSTOMER_ID, name: 'Zoë Łukasiewicz', status: 'verified' });
    expect(data.personal.fields).toEqual([
      { label: 'SSN', value: '•••-••-6789' },
      { label: 'Date of birth', value: 'Hidden' },
      { label: 'Address', value: 'Hidden' },
    ]);
    expect(data.statuses.map((row) => row.what)).toEqual(['Needs document', 'Verified']);
    expect(data.events.map((row) => row.what)).toEqual([
      'Document uploaded',
      'Document rejected',
      'Customer verified',
    ]);
    expect(data.notes.map((row) => row.who)).toEqual(['ada', 'bob']);
    expect(data.documents.items).toMatchObject([
      {
        id: 'doc-rejected-1',
        review: 'rejected',
        reasons: ['The scan is not readable'],
        image: { contentType: 'image/png' },
      },
      { id: 'doc-accepted-2', review: 'accepted', image: 'purged' },
    ]);
    expect(data.claims).toMatchObject({ shared: true, holder: { login: 'carol' } });
    expect(data.claims.rows.map((row) => `${row.who}: ${row.what}`)).toEqual([
      'ada: Case taken',
      'carol: Case taken over',
    ]);
    expect(data.fourEyes.rows.map((row) => `${row.who}: ${row.what}`)).toEqual([
      'ada: Waiting for approval (four eyes)',
      'carol: Approved (four eyes)',
    ]);
    expect(data.audit.entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(data.audit.head).toEqual({ seq: 8, chainHash: data.audit.entries[7]?.chainHash });
  });

  it('reads, in its text, every item with who and when, the chain’s head and the command, and no full value', () => {
    for (const [pageSize, { file, pages }] of pdfs) {
      const text = pdfText(file);
      expect(text, pageSize).toContain('Case file: Zoë Łukasiewicz');
      for (const words of [
        CUSTOMER_ID,
        'Produced by ada',
        'desk-7 (a team’s desk), Vetted 1.2.3',
        '2026-03-02 10:00:00 UTC',
        'Needs document',
        'Reported by the service: Customer verified',
        'ev-2 · customer_verification_document_failed',
        'Called her: the passport scan was blurred.',
        '2026-03-01 09:51:00 UTC · bob',
        'passport: rejected',
        'Reasons: The scan is not readable',
        'Stored image: removed from this desk (purged).',
        'Held now by: carol since 2026-03-01 09:51:00 UTC',
        'Case taken over',
        'Approved (four eyes)',
        `chain hash ${data.audit.entries[0]?.chainHash}`,
        `8:${data.audit.head.chainHash}`,
        `npm run team -- verify-audit --file ${data.audit.attachment.fileName}`,
        '•••-••-6789',
        `Page ${pages} of ${pages}`,
      ]) {
        expect(text, `${pageSize}: ${words}`).toContain(words);
      }
      // Masked as on screen: the date of birth and the address are not in it.
      expect(text).not.toContain('1984-02-29');
      expect(text).not.toContain('Baker Street');
    }
  });

  it('carries the customer’s audit entries as an attachment that verify-audit --file accepts', () => {
    const { file } = pdfs.get('A4')!;
    const out = path.join(work, 'attachments');
    mkdirSync(out, { recursive: true });
    poppler('pdfdetach', ['-saveall', '-o', out, file]);
    expect(readdirSync(out)).toEqual([data.audit.attachment.fileName]);
    const verdict = verifyAuditExport(readFileSync(path.join(out, data.audit.attachment.fileName), 'utf8'));
    expect(verdict).toMatchObject({
      entries: 8,
      whole: false,
      filter: { customerId: CUSTOMER_ID },
      head: { seq: 8 },
    });
  });

  it('embeds its fonts', () => {
    const fonts = poppler('pdffonts', [pdfs.get('Letter')!.file]);
    expect(fonts).toMatch(/DejaVuSans\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/DejaVuSans-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('draws the same pages as its baselines, A4 and Letter', () => {
    for (const [pageSize, { file, pages }] of pdfs) {
      expectPagesLikeBaselines(file, pages, BASELINES, pageSize, work);
    }
  });
});
