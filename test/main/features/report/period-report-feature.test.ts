// The period report channel (main/features/report/index.ts) with its sources stood in for: a reviewer is refused
// in words before the store is asked, and so is a solo desk (its source says why); a lead's report is audited,
// names each rejected document's reason as the service gives it (or says it is not known), draws its charts from
// the trends of the same days, and a period that has not begun is refused and its failure audited.
import { describe, expect, it, vi } from 'vitest';
import { allowedTo, type TeamMe } from '#contract/roles.ts';
import type { DeskContext } from '#main/features/feature.ts';
import { periodReportFeature } from '#main/features/report/index.ts';
import { REASON_UNKNOWN } from '#main/features/report/rejections.ts';
import type { StoreFigures } from '#main/features/team-interfaces/period-report.ts';
import { soloTeamwork } from '#main/variant/local.ts';
import { FIGURES, PRODUCED_AT, TRENDS } from './report-fixture.ts';

const TARGETS = { retry: 24, document: 48, review: 72 };
const STORE: StoreFigures = (({ rejections: _, ...figures }) => ({
  ...figures,
  rejectedDocuments: ['doc-1', 'doc-2', 'doc-3'],
}))(FIGURES);
const INPUT = { from: '2026-03-02', to: '2026-03-08', pageSize: 'A4' } as const;

function rig(role: TeamMe['role'], store: StoreFigures = STORE) {
  const audit: Array<{ action: string; outcome: string; detail: string | null }> = [];
  const documents = {
    // doc-3's lookup throws before any promise, as a connection that is not there does.
    get: vi.fn((id: string) => {
      if (id === 'doc-3') throw new Error('not connected to the service');
      return Promise.resolve({ failureReason: 'ScanNotReadable' });
    }),
  };
  const context = {
    settings: { get: () => ({ ageingTargets: TARGETS }) },
    journal: { audit: { record: async (entry: (typeof audit)[number]) => void audit.push(entry) } },
    connection: () => ({ client: () => ({ documents }) }),
  } as unknown as DeskContext;
  const figures = { read: vi.fn(async () => store) };
  const trends = { read: vi.fn(async () => TRENDS) };
  const me: TeamMe = { mode: 'team', reviewer: 'lee', role, claims: true, can: allowedTo(role) };
  const feature = periodReportFeature(context, {
    figures,
    trends,
    roles: { me: async () => me },
    desk: { name: 'desk-7', version: '1.2.3' },
    clock: () => new Date(PRODUCED_AT),
    timeZone: 'America/New_York',
  });
  return { report: feature.handlers['report.period'], figures, trends, audit, documents };
}

const call = (report: ReturnType<typeof rig>['report'], format: 'pdf' | 'csv' | 'jsonl') =>
  report({ ...INPUT, format }, {} as never);

describe('the period report channel', () => {
  it('refuses a reviewer in words, before the store is asked, and records nothing', async () => {
    const { report, figures, audit } = rig('reviewer');
    await expect(call(report, 'csv')).rejects.toMatchObject({
      code: 'LeadOnly',
      message: expect.stringContaining('Only a lead can see the Team screen'),
    });
    expect(figures.read).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('refuses on a solo desk, which has no team: its source says why', async () => {
    const solo = soloTeamwork({} as never, 'ada');
    await expect(
      solo.period.read({ from: INPUT.from, to: INPUT.to, timeZone: 'UTC', targets: TARGETS }),
    ).rejects.toMatchObject({ code: 'SoloDesk', message: expect.stringContaining('no team whose period') });
  });

  it('gives a lead the rows, the reasons as the service names them, and audits the report', async () => {
    const { report, figures, trends, audit } = rig('lead');
    const file = await call(report, 'jsonl');
    expect(figures.read).toHaveBeenCalledWith({
      from: INPUT.from,
      to: INPUT.to,
      timeZone: 'America/New_York',
      targets: TARGETS,
    });
    expect(trends.read).not.toHaveBeenCalled();
    expect(file).toMatchObject({
      fileName: 'vetted-period-report-2026-03-02-to-2026-03-08-2026-03-11.jsonl',
      mimeType: 'application/jsonl',
    });
    const rows = file.content
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(file.count).toBe(rows.length);
    expect(rows.filter((row) => row.figure === 'documents_rejected')).toMatchObject([
      { item: 'The photo could not be read', value: 2 },
      { item: REASON_UNKNOWN, value: 1 },
    ]);
    expect(audit).toEqual([
      { action: 'report.period', outcome: 'ok', detail: '2026-03-02 to 2026-03-08, jsonl' },
    ]);
  });

  it('draws the PDF’s charts from the trends of the same days, for the team', async () => {
    const { report, trends, audit } = rig('lead');
    const file = await call(report, 'pdf');
    expect(trends.read).toHaveBeenCalledWith(
      expect.objectContaining({ scope: 'team', from: INPUT.from, to: INPUT.to, reviewer: 'lee' }),
    );
    expect(file).toMatchObject({ mimeType: 'application/pdf', encoding: 'base64' });
    expect(Buffer.from(file.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(file.count).toBeGreaterThan(1);
    expect(audit.at(-1)).toMatchObject({ outcome: 'ok', detail: '2026-03-02 to 2026-03-08, pdf, A4' });
  });

  it('refuses a period that has not begun, and records that the report failed', async () => {
    const { report, audit } = rig('lead', { ...STORE, startAt: '2026-03-12T04:00:00.000Z' });
    await expect(call(report, 'csv')).rejects.toMatchObject({
      code: 'PeriodNotBegun',
      message: 'The period has not begun yet: choose a first day that is today or earlier.',
    });
    expect(audit.map((entry) => entry.outcome)).toEqual(['ok', 'failed']);
  });
});
