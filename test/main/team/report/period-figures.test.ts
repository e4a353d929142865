// The period report's figures as the team store computes them (main/team/report/period-figures.ts), on a seeded
// status history, audit chain, four-eyes requests and webhook events at a fixed moment (the store's `vetted.now`):
// the period's days in the desk's time zone (New York, across the change to summer time), who opened and who
// closed what in which section, the times of the visits begun in it, what was overdue at its end, the requests
// and their decisions as they stood then, the rejected documents, and the audit chain's head at its end.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamPeriodFigures } from '#main/team/report/period-figures.ts';
import { teamClientConfig } from '#main/team/store/pool.ts';
import { PERIOD_NOW, PERIOD_TARGETS, PERIOD_ZONE, periodInTeam } from '#test/support/period-world.ts';
import { type ClaimsReviewer, reviewersAndALead } from '#test/support/team/claims-support.ts';

// The world (test/support/period-world.ts) is read at Wednesday 11 March 2026, 15:00 UTC.
const NOW = PERIOD_NOW;
const NEW_YORK = PERIOD_ZONE;

let ana: ClaimsReviewer;
let lee: ClaimsReviewer;
let pool: pg.Pool;
let headAtEnd: { seq: number; chainHash: string };

const read = (from: string, to: string) =>
  teamPeriodFigures({ pool, target: lee.connection }).read({
    from,
    to,
    timeZone: NEW_YORK,
    targets: PERIOD_TARGETS,
  });

beforeAll(async () => {
  const { team, ...reviewers } = await reviewersAndALead();
  ({ ana, lee } = reviewers);
  pool = new pg.Pool({
    ...teamClientConfig(lee.connection, lee.password),
    options: `-c vetted.now=${NOW}`,
    max: 2,
  });
  ({ headAtEnd } = await periodInTeam(team, { ana, lee }));
});
afterAll(async () => {
  await pool.end();
});

describe('a week that ended (2 to 8 March, New York)', () => {
  it('runs from the first day’s midnight to the last day’s end in the desk’s time zone', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures).toMatchObject({
      from: '2026-03-02',
      to: '2026-03-08',
      timeZone: NEW_YORK,
      startAt: '2026-03-02T05:00:00.000Z',
      endAt: '2026-03-09T03:59:59.999Z',
    });
  });

  it('counts the cases opened and closed per section and per reviewer', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures.opened).toEqual([
      { section: 'retry', reviewer: null, count: 2 },
      { section: 'document', reviewer: lee.name, count: 1 },
    ]);
    expect(figures.closed).toEqual([
      { section: 'retry', reviewer: null, count: 1 },
      { section: 'document', reviewer: ana.name, count: 1 },
    ]);
  });

  it('measures the visits begun in the period, and what was overdue at its end', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures.times).toEqual([
      {
        section: 'retry',
        entered: 2,
        firstAction: { count: 0, medianSeconds: null, p90Seconds: null },
        resolution: { count: 1, medianSeconds: 172_800, p90Seconds: 172_800 },
      },
      {
        section: 'document',
        entered: 1,
        firstAction: { count: 1, medianSeconds: 79_200, p90Seconds: 79_200 },
        resolution: { count: 1, medianSeconds: 165_600, p90Seconds: 165_600 },
      },
    ]);
    expect(figures.overdue).toEqual([
      { section: 'retry', count: 1 },
      { section: 'document', count: 1 },
    ]);
  });

  it('gives the four-eyes requests with their decisions as they stood, the rejections and the chain’s head', async () => {
    const figures = await read('2026-03-02', '2026-03-08');
    expect(figures.fourEyes).toEqual([
      { kind: 'exportNames', decision: 'pending', count: 1 },
      { kind: 'retry', decision: 'approved', count: 1 },
    ]);
    expect(figures.rejectedDocuments).toEqual(['doc-1']);
    expect(figures.auditHead).toEqual(headAtEnd);
  });
});

describe('a period reaching today', () => {
  it('ends at the store’s now, with the chain’s head then', async () => {
    const figures = await read('2026-03-09', '2026-03-11');
    expect(figures).toMatchObject({ startAt: '2026-03-09T04:00:00.000Z', endAt: NOW });
    expect(figures.opened).toEqual([{ section: 'retry', reviewer: null, count: 1 }]);
    expect(figures.fourEyes).toEqual([]);
    expect(figures.rejectedDocuments).toEqual(['doc-2']);
    expect(figures.auditHead?.seq).toBeGreaterThan(headAtEnd.seq);
  });
});
