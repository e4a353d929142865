// The period report read as a person reads it: its text (pdftotext) holds every figure, the chain's head and the
// command that checks it; its pages (pdftoppm, A4 and Letter) match their baselines, the charts drawn as vectors.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageSize } from '#contract/case-file.ts';
import { duration, renderPeriodReport } from '#main/features/report/report-pdf.ts';
import { expectPagesLikeBaselines, pdfText, poppler } from '#test/support/pdf-pages.ts';
import { HEAD_HASH, REPORT } from './report-fixture.ts';

const BASELINES = path.join(import.meta.dirname, '__baselines__', 'period-report');
const work = mkdtempSync(path.join(os.tmpdir(), 'vetted-period-report-'));
const pdfs = new Map<PageSize, { file: string; pages: number }>();

beforeAll(async () => {
  for (const pageSize of ['A4', 'Letter'] as const) {
    const { bytes, pages } = await renderPeriodReport({ ...REPORT, pageSize });
    const file = path.join(work, `report-${pageSize}.pdf`);
    writeFileSync(file, bytes);
    pdfs.set(pageSize, { file, pages });
  }
});

describe('the period report as a PDF', () => {
  it('reads every figure, who produced it, the chain’s head and the command that checks it', () => {
    for (const [pageSize, { file, pages }] of pdfs) {
      const text = pdfText(file);
      for (const words of [
        'Period report: 2026-03-02 to 2026-03-08',
        '2026-03-02 to 2026-03-08 (America/New_York)',
        '2026-03-02 05:00:00 UTC to 2026-03-09 03:59:59 UTC',
        'Produced by lee',
        'desk-7 (a team’s desk), Vetted 1.2.3',
        // Opened and closed, by section, then by reviewer.
        'Needs retry 2 4',
        'Needs document 8 7',
        'Knowledge-based questions 0 1',
        'ben 3 4',
        'łucja 5 7',
        'Nobody (no reviewer’s hand) 2 1',
        // Times: visits, acted on, median, p90, resolved, median, p90.
        'Needs retry 6 5 45 min 2 h 30 min 4 25 h 00 min',
        'Needs document 9 9 45 s 10 min 0 — —',
        // Overdue at the end, against the targets.
        'Needs retry 24 h 3',
        'Needs document 48 h 11',
        'Queue export with names Rejected 1',
        'One-time retry Approved 6',
        'One-time retry Still waiting 2',
        'The scan is not readable 4',
        'Expired, "old" ID 1',
        'Last entry 4321',
        HEAD_HASH,
        `--head 4321:${HEAD_HASH}`,
        'verify-audit --file',
        'Backlog by section, at each day’s end',
        'Cases closed per day, by reviewer',
        'Time to first action and to resolution per week (hours)',
        'Overdue cases at each day’s end',
        `Page ${pages} of ${pages}`,
      ]) {
        expect(text, `${pageSize}: ${words}`).toContain(words);
      }
      // pdftotext reads the narrow right-aligned "2 d 7 h" without its spaces.
      expect(text).toMatch(/25 h 00 min 2 ?d ?7 ?h Needs document/);
      // A report of counts: no personal data, nothing shaped as a full SSN.
      expect(text).not.toMatch(/\b\d{3}-\d{2}-\d{4}\b/);
    }
  });

  it('embeds its fonts and draws the same pages as its baselines, A4 and Letter', () => {
    for (const [pageSize, { file, pages }] of pdfs) {
      expect(poppler('pdffonts', [file])).toMatch(/DejaVuSans\s+CID TrueType\s+Identity-H\s+yes yes yes/);
      expectPagesLikeBaselines(file, pages, BASELINES, pageSize, work);
    }
  });

  it('says a time as a reviewer reads it', () => {
    expect([null, 12, 59.6, 60, 3599, 3600, 7500, 172_799, 172_800].map(duration)).toEqual([
      '—',
      '12 s',
      '59 s',
      '1 min',
      '1 h 00 min',
      '1 h 00 min',
      '2 h 05 min',
      '2 d 0 h',
      '2 d 0 h',
    ]);
  });
});
