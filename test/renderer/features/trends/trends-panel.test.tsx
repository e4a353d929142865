// The trends panel (#39) on a fake main: it reads a scope's trends over the range chosen, keeps the latest
// range's answer whatever order answers come in, says main's refusal in its words; and its markup: a labelled
// range group of radios, four titled figures, each with its table (caption, column and row headers) and a CSV.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Trends, TrendsInput } from '#contract/trends.ts';
import { deferred, fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';
import { trendsSample } from '#test/support/renderer/trends-sample.ts';

let read: ReturnType<typeof vi.fn<(input: TrendsInput) => Promise<Trends>>>;
let store: typeof import('#renderer/features/trends/trends-store.ts');
let panel: typeof import('#renderer/features/trends/TrendsPanel.tsx');
let table: typeof import('#renderer/features/trends/TrendTable.tsx');
let figures: typeof import('#renderer/features/trends/trend-figures.ts');

beforeEach(async () => {
  read = vi.fn(async ({ scope, days }: TrendsInput) => trendsSample({ scope, days }));
  await installFresh(fakeApi({ trends: { read } }));
  store = await import('#renderer/features/trends/trends-store.ts');
  panel = await import('#renderer/features/trends/TrendsPanel.tsx');
  table = await import('#renderer/features/trends/TrendTable.tsx');
  figures = await import('#renderer/features/trends/trend-figures.ts');
});

const view = (scope: 'team' | 'mine') => store.useTrendsStore.getState().views[scope];
const html = (scope: 'team' | 'mine') =>
  renderToStaticMarkup(createElement(panel.TrendsPanelView, { view: view(scope), onRange: () => {} }));

describe('the trends store', () => {
  it('reads a scope over 30 days first, then over the range chosen; the scopes apart', async () => {
    await store.useTrendsStore.getState().load('team');
    expect(read).toHaveBeenLastCalledWith({ scope: 'team', days: 30 });
    expect(view('team').trends?.days).toHaveLength(30);

    await store.useTrendsStore.getState().load('team', 7);
    expect(read).toHaveBeenLastCalledWith({ scope: 'team', days: 7 });
    expect(view('team')).toMatchObject({ days: 7, problem: null, reading: false });
    expect(view('mine').trends).toBeNull();

    await store.useTrendsStore.getState().load('team');
    expect(read).toHaveBeenLastCalledWith({ scope: 'team', days: 7 });
  });

  it('an earlier range answering last does not replace the later one', async () => {
    const slow = deferred<Trends>();
    read.mockImplementationOnce(() => slow.promise);
    const first = store.useTrendsStore.getState().load('team', 90);
    await store.useTrendsStore.getState().load('team', 7);
    slow.resolve(trendsSample({ days: 90 }));
    await first;
    expect(view('team').days).toBe(7);
    expect(view('team').trends?.days).toHaveLength(7);
  });

  it('says main’s refusal in its words, and keeps what it showed', async () => {
    await store.useTrendsStore.getState().load('mine');
    // The store's own copy of the class (the renderer's modules are loaded afresh for each test).
    const { VettedError } = await import('#contract/errors.ts');
    read.mockRejectedValueOnce(
      new VettedError({ code: 'Forbidden', message: 'Only a lead can see the team’s trends.' }),
    );
    await store.useTrendsStore.getState().load('mine', 90);
    expect(view('mine').problem).toBe('Only a lead can see the team’s trends.');
    expect(view('mine').trends?.days).toHaveLength(30);
    read.mockRejectedValueOnce(new Error('socket hang up'));
    await store.useTrendsStore.getState().load('mine', 90);
    expect(view('mine').problem).toBe('The trends could not be read.');
  });
});

describe('the trends panel', () => {
  it('says it is loading until main answers', () => {
    expect(html('team')).toContain('<p role="status">Loading the trends…</p>');
  });

  it('offers the three ranges as a labelled group of radios, the one shown checked', async () => {
    await store.useTrendsStore.getState().load('team', 7);
    const markup = html('team');
    expect(markup).toMatch(/<fieldset class="segmented"><legend class="segmented-legend">Range<\/legend>/);
    const radios = [...markup.matchAll(/<input type="radio"[^>]*>/g)].map((match) => match[0]);
    expect(radios).toHaveLength(3);
    expect(radios.filter((radio) => radio.includes('checked'))).toEqual([
      expect.stringContaining('value="7"'),
    ]);
    expect(markup).toContain('<span>90 days</span>');
  });

  it('shows four titled figures, each with a CSV and its table behind "Show as table"', async () => {
    await store.useTrendsStore.getState().load('team');
    const markup = html('team');
    const titles = [...markup.matchAll(/<h4 id="trend-team-(\w+)">([^<]+)<\/h4>/g)].map((match) => match[2]);
    expect(titles).toEqual([
      'Backlog by section',
      'Cases closed by reviewer',
      'Time to first action and to resolution',
      'Overdue cases',
    ]);
    expect(markup.match(/Download CSV/g)).toHaveLength(4);
    expect(markup.match(/<summary>Show as table<\/summary>/g)).toHaveLength(4);
    expect(markup.match(/<table/g)).toHaveLength(4);
    expect(markup).toContain('role="status"');
  });

  it('a figure’s table: a caption, a header per column, the day as each row’s header, times in words too', () => {
    const trends = trendsSample({ days: 7 });
    const [backlog, , times] = figures.trendFigures(trends);
    const backlogTable = renderToStaticMarkup(createElement(table.TrendTable, { figure: backlog! }));
    expect(backlogTable).toContain(
      '<caption class="visually-hidden">Backlog by section: Open cases in each section at the end of each day</caption>',
    );
    expect(backlogTable).toContain('<th scope="col">Day</th><th scope="col" class="number">Needs retry</th>');
    expect(backlogTable).toContain(
      `<th scope="row"><time dateTime="${trends.days[0]}">Sat, Nov 21, 2026</time></th><td class="number">`,
    );
    const timesTable = renderToStaticMarkup(createElement(table.TrendTable, { figure: times! }));
    expect(timesTable).toContain('<span class="visually-hidden">40 minutes</span>');
    expect(timesTable).toContain('<span class="visually-hidden">none measured</span>');
  });

  it('a scope with nothing closed says so instead of drawing an empty chart', async () => {
    read.mockResolvedValueOnce({ ...trendsSample({ scope: 'mine', reviewer: 'dana' }), closed: [] });
    await store.useTrendsStore.getState().load('mine');
    const markup = html('mine');
    expect(markup).toContain('<p class="trend-nothing">No case was closed in these days.</p>');
    expect(markup.match(/Download CSV/g)).toHaveLength(3);
  });
});
