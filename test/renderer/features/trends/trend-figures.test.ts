// The trends as figures (#39): what each chart draws, its table lists and its CSV holds, from one function, so
// the three never disagree; and each series' look, told apart by more than colour.
import { describe, expect, it } from 'vitest';
import { TrendsSchema } from '#contract/trends.ts';
import { seriesStyle } from '#renderer/features/trends/series-style.ts';
import { figureCsv, figureFileName, hasData, trendFigures } from '#renderer/features/trends/trend-figures.ts';
import { timeUnitFor } from '#renderer/features/trends/trend-format.ts';
import { trendsSample } from '#test/support/renderer/trends-sample.ts';

const byId = (trends: ReturnType<typeof trendsSample>) =>
  Object.fromEntries(trendFigures(trends).map((figure) => [figure.id, figure]));

describe('the trends as figures', () => {
  it('the sample is trends as the contract has them', () => {
    expect(() => TrendsSchema.parse(trendsSample({ days: 90 }))).not.toThrow();
  });

  it('backlog: a line per open section, a value per day, "Other" only when something is in it', () => {
    const trends = trendsSample({ days: 7 });
    const { backlog } = byId(trends);
    expect(backlog?.rows).toEqual(trends.days);
    expect(backlog?.series.map((series) => series.label)).toEqual([
      'Needs retry',
      'Needs document',
      'Knowledge-based questions',
      'Unverified',
    ]);
    const retry = trends.backlog.filter((point) => point.section === 'retry').map((point) => point.count);
    expect(backlog?.series[0]?.values).toEqual(retry);

    const withOther = trendsSample({ days: 7 });
    withOther.backlog = withOther.backlog.map((point) =>
      point.section === 'other' && point.day === withOther.days[3] ? { ...point, count: 2 } : point,
    );
    expect(byId(withOther).backlog?.series.at(-1)).toEqual({ label: 'Other', values: [0, 0, 0, 2, 0, 0, 0] });
  });

  it('closed: a line per reviewer by name, nobody’s closings last; a day missing from the points counts 0', () => {
    const trends = trendsSample({ days: 7, reviewers: ['sam', null, 'dana'] });
    trends.closed = trends.closed.filter(
      (point) => !(point.reviewer === 'sam' && point.day === trends.days[0]),
    );
    const { closed } = byId(trends);
    expect(closed?.title).toBe('Cases closed by reviewer');
    expect(closed?.series.map((series) => series.label)).toEqual(['dana', 'sam', 'No reviewer’s action']);
    expect(closed?.series[1]?.values[0]).toBe(0);

    const mine = byId(trendsSample({ scope: 'mine', reviewer: 'dana', days: 7 }));
    expect(mine.closed?.title).toBe('Cases you closed');
    expect(mine.closed?.series.map((series) => series.label)).toEqual(['dana']);
    expect(mine.overdue?.description).toMatch(/among those you held$/);
  });

  it('nobody closed anything: nothing to draw', () => {
    const trends = { ...trendsSample({ days: 7 }), closed: [] };
    expect(hasData(byId(trends).closed!)).toBe(false);
    expect(hasData(byId(trends).backlog!)).toBe(true);
  });

  it('times: a row per week, median and 90th percentile of each, null where none was measured', () => {
    const trends = trendsSample({ days: 30 });
    const { times } = byId(trends);
    expect(times?.rowHeader).toBe('Week from');
    expect(times?.rows).toEqual(trends.times.map((week) => week.weekFrom));
    expect(times?.series.map((series) => series.label)).toEqual([
      'First action, median',
      'First action, 90th percentile',
      'Resolution, median',
      'Resolution, 90th percentile',
    ]);
    expect(times?.series[2]?.values[1]).toBeNull();
    expect(times?.series[0]?.values[0]).toBe(trends.times[0]?.firstAction.medianSeconds);
  });

  it('overdue: a value per day, the targets in its description', () => {
    const trends = trendsSample({ days: 7 });
    const { overdue } = byId(trends);
    expect(overdue?.series).toEqual([
      { label: 'Overdue', values: trends.overdue.map((point) => point.count) },
    ]);
    expect(overdue?.description).toBe(
      'Open cases past their section’s target at the end of each day (retry 24 h, document 48 h, review 72 h)',
    );
  });

  it('the CSV holds the table’s numbers: a header, then a line per row; times in seconds, none measured empty', () => {
    const trends = trendsSample({ days: 7 });
    const { overdue, times } = byId(trends);
    const lines = figureCsv(overdue!).split('\r\n');
    expect(lines[0]).toBe('Day,Overdue');
    expect(lines.slice(1, -1)).toEqual(trends.overdue.map((point) => `${point.day},${point.count}`));
    expect(lines.at(-1)).toBe('');
    const timesCsv = figureCsv(times!).split('\r\n');
    expect(timesCsv[0]).toBe(
      'Week from,"First action, median (seconds)","First action, 90th percentile (seconds)",' +
        '"Resolution, median (seconds)","Resolution, 90th percentile (seconds)"',
    );
    // The second week resolved nothing: its resolution cells are empty, not 0.
    expect(timesCsv[2]).toMatch(/^\d{4}-\d{2}-\d{2},\d+,\d+,,$/);
  });

  it('a reviewer’s login that a spreadsheet would run stays text in the CSV', () => {
    const { closed } = byId(trendsSample({ days: 7, reviewers: ['=HYPERLINK("x")'] }));
    expect(figureCsv(closed!).split('\r\n')[0]).toBe('Day,"\'=HYPERLINK(""x"")"');
  });

  it('names its file by scope, figure, range and day', () => {
    const trends = trendsSample({ days: 90 });
    expect(figureFileName(byId(trends).backlog!, trends)).toBe(
      'vetted-trends-team-backlog-90-days-2026-11-27.csv',
    );
  });
});

describe('how series are told apart', () => {
  it('the first 36 series differ in colour or dash from one another; the first six in both', () => {
    const looks = Array.from({ length: 36 }, (_, index) => seriesStyle(index));
    const keys = looks.map((look) => `${look.ink}/${look.dash.join(',')}`);
    expect(new Set(keys).size).toBe(36);
    expect(new Set(looks.slice(0, 6).map((look) => look.ink)).size).toBe(6);
    expect(new Set(looks.slice(0, 6).map((look) => look.dash.join(','))).size).toBe(6);
  });

  it('a chart of times counts in the largest unit its longest time reaches twice', () => {
    expect(timeUnitFor(90).short).toBe('min');
    expect(timeUnitFor(3 * 3600).short).toBe('h');
    expect(timeUnitFor(2 * 86_400).short).toBe('d');
  });
});
