// The period report as rows: every figure one row, as CSV (RFC 4180) and as JSON Lines, each read back to the
// same figures; the period on every row, and a reason with a comma and quotes kept whole.
import { describe, expect, it } from 'vitest';
import { figureRows, REPORT_COLUMNS, reportCsv, reportJsonl } from '#main/features/report/report-rows.ts';
import { FIGURES, HEAD_HASH } from './report-fixture.ts';

/** RFC 4180 read back: quoted cells may hold commas, doubled quotes and line breaks; lines end in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += char;
    }
  }
  return rows;
}

const rows = figureRows(FIGURES);

describe('the period report as rows', () => {
  it('gives every figure a row', () => {
    const by = (figure: string) => rows.filter((row) => row.figure === figure);
    expect(by('opened')).toHaveLength(3);
    expect(by('closed')).toContainEqual({
      figure: 'closed',
      section: 'document',
      reviewer: 'łucja',
      item: null,
      value: 7,
    });
    expect(by('first_action_median_seconds')).toEqual([
      { figure: 'first_action_median_seconds', section: 'retry', reviewer: null, item: null, value: 2700 },
      { figure: 'first_action_median_seconds', section: 'document', reviewer: null, item: null, value: 45 },
    ]);
    expect(by('resolution_p90_seconds').map((row) => row.value)).toEqual([200_000, null]);
    expect(by('overdue_at_end').map((row) => [row.section, row.value])).toEqual([
      ['retry', 3],
      ['document', 11],
    ]);
    expect(by('four_eyes_requests').map((row) => [row.item, row.value])).toEqual([
      ['exportNames:rejected', 1],
      ['retry:approved', 6],
      ['retry:pending', 2],
    ]);
    expect(by('documents_rejected').map((row) => [row.item, row.value])).toEqual([
      ['The scan is not readable', 4],
      ['Expired, "old" ID', 1],
    ]);
    expect(by('audit_head_seq')[0]?.value).toBe(4321);
    expect(by('audit_head_hash')[0]?.value).toBe(HEAD_HASH);
  });

  it('writes CSV that reads back to the same rows, the period on each', () => {
    const [header, ...lines] = parseCsv(reportCsv(FIGURES, rows));
    expect(header).toEqual([...REPORT_COLUMNS]);
    expect(lines).toHaveLength(rows.length);
    for (const [index, line] of lines.entries()) {
      const row = rows[index]!;
      expect(line).toEqual([
        '2026-03-02',
        '2026-03-08',
        row.figure,
        row.section ?? '',
        row.reviewer ?? '',
        row.item ?? '',
        row.value === null ? '' : String(row.value),
      ]);
    }
  });

  it('writes JSON Lines that read back to the same rows, null where nothing applies', () => {
    const text = reportJsonl(FIGURES, rows);
    expect(text.endsWith('\n')).toBe(true);
    const read = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(read).toEqual(rows.map((row) => ({ period_from: '2026-03-02', period_to: '2026-03-08', ...row })));
    for (const object of read) expect(Object.keys(object)).toEqual([...REPORT_COLUMNS]);
  });
});
