// The period report made from a world, as a lead's desk makes it (#39, "done when"): the world of
// test/support/period-world.ts in a team store at a fixed moment (`vetted.now`), the report feature's own
// gathering (the store's figures, the team's trends for the charts, the role from the store, the desk's name
// and a fixed production time), then the PDF, A4 and Letter. Read as a person reads it: its text (pdftotext)
// holds the figures the world makes and no full SSN; its pages (pdftoppm) match their baselines. The service's
// answer for a rejected document is stood in for (one document, one reason); everything else is the real code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSize } from '#contract/case-file.ts';
import type { DeskContext } from '#main/features/feature.ts';
import { periodReportFeature } from '#main/features/report/index.ts';
import { teamRoles } from '#main/team/claims/team-roles.ts';
import { teamTrends } from '#main/team/claims/team-trends.ts';
import { teamPeriodFigures } from '#main/team/report/period-figures.ts';
import { teamClientConfig } from '#main/team/store/pool.ts';
import { expectPagesLikeBaselines, pdfText } from '#test/support/pdf-pages.ts';
import {
  PERIOD_NOW,
  PERIOD_TARGETS,
  PERIOD_WEEK,
  PERIOD_ZONE,
  periodInTeam,
  REJECTED_IN_WEEK,
} from '#test/support/period-world.ts';
import { reviewersAndALead } from '#test/support/team/claims-support.ts';

const BASELINES = path.join(import.meta.dirname, '__baselines__', 'period-report-world');
const work = mkdtempSync(path.join(os.tmpdir(), 'vetted-period-report-world-'));

// The pages show the logins and the chain's hash, so the team is the same on every run: its logins named
// exactly (no other test file uses these), lee made a lead at a fixed moment before the world begins.
const NAMES = { ana: 'ana_world', ben: 'ben_world', lee: 'lee_world' };
const ROLE_SET_AT = '2026-02-27T09:00:00.000Z';
const PRODUCED_AT = '2026-03-11T15:05:00.000Z';
/** The world's chain as the week ended: the same on every run, or the pages could not be compared. */
const HEAD_AT_END = { seq: 6, chainHash: '7e6b78e051d45228be14447add5b6c83612cc658f8b0f16d41f85bd116dc94ab' };

const pdfs = new Map<PageSize, { file: string; pages: number }>();
const audited: Array<{ action: string; outcome: string; detail: string | null }> = [];
const asked: string[] = [];
let headAtEnd: { seq: number; chainHash: string };
let pool: pg.Pool;

beforeAll(async () => {
  const { team, ana, lee } = await reviewersAndALead({ names: NAMES, roleSetAt: ROLE_SET_AT });
  ({ headAtEnd } = await periodInTeam(team, { ana, lee }));
  // lee's desk, its store read at the world's now.
  pool = new pg.Pool({
    ...teamClientConfig(lee.connection, lee.password),
    options: `-c vetted.now=${PERIOD_NOW}`,
    max: 2,
  });
  const context = {
    settings: { get: () => ({ ageingTargets: PERIOD_TARGETS }) },
    journal: { audit: { record: async (entry: (typeof audited)[number]) => void audited.push(entry) } },
    // The service, asked why each rejected document was rejected.
    connection: () => ({
      client: () => ({
        documents: {
          get: async (id: string) => {
            asked.push(id);
            return { failureReason: 'ScanIdExpired' };
          },
        },
      }),
    }),
  } as unknown as DeskContext;
  const target = lee.connection;
  const report = periodReportFeature(context, {
    figures: teamPeriodFigures({ pool, target }),
    trends: teamTrends({ pool, target }),
    roles: teamRoles(lee.store, lee.name),
    desk: { name: 'desk-7', version: '1.2.3' },
    clock: () => new Date(PRODUCED_AT),
    timeZone: PERIOD_ZONE,
  }).handlers['report.period'];
  for (const pageSize of ['A4', 'Letter'] as const) {
    const made = await report({ ...PERIOD_WEEK, format: 'pdf', pageSize }, {} as never);
    const file = path.join(work, `report-${pageSize}.pdf`);
    writeFileSync(file, Buffer.from(made.content, 'base64'));
    pdfs.set(pageSize, { file, pages: made.count });
  }
});
afterAll(async () => {
  await pool?.end();
  rmSync(work, { recursive: true, force: true });
});

describe('the period report of the world’s week, made as a lead’s desk makes it', () => {
  it('holds the figures the world makes, the chain’s head at the week’s end, and no full SSN', () => {
    expect(headAtEnd).toEqual(HEAD_AT_END);
    expect(asked).toEqual([REJECTED_IN_WEEK, REJECTED_IN_WEEK]);
    for (const [pageSize, { file, pages }] of pdfs) {
      const text = pdfText(file);
      for (const words of [
        'Period report: 2026-03-02 to 2026-03-08',
        '2026-03-02 05:00:00 UTC to 2026-03-09 03:59:59 UTC',
        'Produced 2026-03-11 15:05:00 UTC',
        'Produced by lee_world',
        'desk-7 (a team’s desk), Vetted 1.2.3',
        // Opened and closed by section, then by reviewer: lee created one, ana's note closed it, the rest
        // came and went with nobody's hand on them.
        'Needs retry 2 1',
        'Needs document 1 1',
        'ana_world 0 1',
        'lee_world 1 0',
        'Nobody (no reviewer’s hand) 2 1',
        // ana's note 22 h after the case was created; resolved 46 h after.
        'Needs document 1 1 22 h 00 min 22 h 00 min 1 46 h 00 min 46 h 00 min',
        'One-time retry Approved 1',
        'Queue export with names Still waiting 1',
        'The ID has expired 1',
        `Last entry ${headAtEnd.seq}`,
        headAtEnd.chainHash,
        `--head ${headAtEnd.seq}:${headAtEnd.chainHash}`,
        'Backlog by section, at each day’s end',
        `Page ${pages} of ${pages}`,
      ]) {
        expect(text, `${pageSize}: ${words}`).toContain(words);
      }
      expect(text).not.toMatch(/\b\d{3}-?\d{2}-?\d{4}\b/);
    }
  });

  it('records its production in the audit log, once for each file', () => {
    expect(audited).toEqual([
      { action: 'report.period', outcome: 'ok', detail: '2026-03-02 to 2026-03-08, pdf, A4' },
      { action: 'report.period', outcome: 'ok', detail: '2026-03-02 to 2026-03-08, pdf, Letter' },
    ]);
  });

  it('draws the same pages as its baselines, A4 and Letter', () => {
    for (const [pageSize, { file, pages }] of pdfs) {
      expectPagesLikeBaselines(file, pages, BASELINES, pageSize, work);
    }
  });
});
