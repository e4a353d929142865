// The trends (#39) as a lead reads them in browser mode: the Team screen's four charts over 30 days, switched to
// 7, a figure's table read by role (the same numbers as main answered), its CSV downloaded; axe on the trends
// in both schemes; a chart redrawn in the system's colours once forced colours are on; then My work in Settings, the lead's own. The world is the look's team (look/team-world.ts,
// its trends from look/trends-world.ts) on the canned desk: fixed numbers to read back, no team store to start.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { SECTION_TITLES } from '#contract/queue.ts';
import { trendsSample } from '#test/support/renderer/trends-sample.ts';
import { expect, test } from './look/canned-desk.ts';
import { NOW } from './look/world.ts';
import { expectNoAxeViolations } from './support/axe.ts';

test.use({ team: 'lead', viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
// What the page's functions below use of the DOM (the specs are typed without the DOM's library).
interface Canvas {
  width: number;
  height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: number[] } } | null;
}
interface Probe {
  style: { color: string };
  remove(): void;
}
interface PageGlobals {
  document: { createElement(tag: 'span'): Probe; body: { append(node: Probe): void } };
  getComputedStyle(node: Probe): { color: string };
}

/** How many of a canvas's pixels are exactly this opaque colour (`rgb(r, g, b)`). */
const pixelsOf = (canvas: Locator, color: string) =>
  canvas.evaluate((element, rgb) => {
    const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number);
    const chart = element as unknown as Canvas;
    const { data } = chart.getContext('2d')?.getImageData(0, 0, chart.width, chart.height) ?? { data: [] };
    let count = 0;
    for (let at = 0; at < data.length; at += 4) {
      if (data[at] === r && data[at + 1] === g && data[at + 2] === b && data[at + 3] === 255) count++;
    }
    return count;
  }, color);
const FIGURES = [
  'Backlog by section',
  'Cases closed by reviewer',
  'Time to first action and to resolution',
  'Overdue cases',
];

test('a lead switches the team’s trends to 7 days, reads the backlog’s table and downloads its CSV', async ({
  page,
  desk,
}) => {
  // Two axe analyses and four charts drawn twice, on a loaded 2-core machine (60 s ran out beside another run).
  test.setTimeout(120_000);
  await page.clock.setFixedTime(NOW);
  await page.goto(desk.launchUrl);
  await nav(page, 'Team');
  const trends = page.getByRole('region', { name: 'Trends' });
  const range = trends.getByRole('group', { name: 'Range' });
  await expect(range.getByRole('radio', { name: '30 days' })).toBeChecked();
  for (const name of FIGURES) {
    const figure = trends.getByRole('region', { name });
    // Drawn: uPlot's canvas inside the chart, which assistive technology reads as one named image.
    await expect(figure.getByRole('img', { name: /^Line chart: / }).locator('canvas')).toHaveCount(1);
  }

  // The canvas takes its inks from the tokens: the overdue line in indigo, then, in forced colours (Windows'
  // high contrast), redrawn in the system's text colour, read from the page as the browser resolves it.
  const overdue = trends.getByRole('region', { name: 'Overdue cases' }).locator('canvas');
  await expect.poll(() => pixelsOf(overdue, 'rgb(62, 99, 221)')).toBeGreaterThan(100);
  await page.emulateMedia({ forcedColors: 'active' });
  const canvasText = await page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    const probe = document.createElement('span');
    probe.style.color = 'CanvasText';
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  });
  await expect.poll(() => pixelsOf(overdue, canvasText)).toBeGreaterThan(100);
  expect(await pixelsOf(overdue, 'rgb(62, 99, 221)')).toBe(0);
  await page.emulateMedia({ forcedColors: 'none' });

  await range.getByRole('radio', { name: '7 days' }).check();
  await expect(trends).toContainText('From Sat, Nov 21, 2026 to today');
  const backlog = trends.getByRole('region', { name: 'Backlog by section' });
  await backlog.getByText('Show as table').click();
  const table = backlog.getByRole('table', { name: /^Backlog by section/ });
  const sample = trendsSample({ days: 7, at: new Date(NOW).toISOString() });
  const sections = ['retry', 'document', 'kba', 'unverified'] as const;
  await expect(table.getByRole('columnheader')).toHaveText([
    'Day',
    ...sections.map((section) => SECTION_TITLES[section]),
  ]);
  await expect(table.getByRole('rowheader')).toHaveText(
    sample.days.map((day) => new RegExp(`Nov ${Number(day.slice(8))}, 2026$`)),
  );
  const countOn = (day: string, section: string) =>
    sample.backlog.find((point) => point.day === day && point.section === section)?.count;
  const lastDay = sample.days.at(-1) as string;
  await expect(table.getByRole('row').last().getByRole('cell')).toHaveText(
    sections.map((section) => String(countOn(lastDay, section))),
  );
  await expectNoAxeViolations(page, { screen: 'the team’s trends, light', include: 'section.team-trends' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, { screen: 'the team’s trends, dark', include: 'section.team-trends' });

  const downloading = page.waitForEvent('download');
  await backlog.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('vetted-trends-team-backlog-7-days-2026-11-27.csv');
  const lines = readFileSync((await download.path()) ?? '', 'utf8').split('\r\n');
  expect(lines[0]).toBe('Day,Needs retry,Needs document,Knowledge-based questions,Unverified');
  expect(lines.slice(1, -1)).toEqual(
    sample.days.map((day) => [day, ...sections.map((section) => countOn(day, section))].join(',')),
  );
  await expect(backlog.getByRole('status')).toHaveText('Exported 7 rows.');

  // My work: the lead's own trends in Settings, its closings Lee's alone.
  await nav(page, 'Settings');
  const mine = page.getByRole('region', { name: 'My work' });
  const closed = mine.getByRole('region', { name: 'Cases you closed' });
  await expect(closed.getByRole('list', { name: 'Lines' }).getByRole('listitem')).toHaveText(['lee']);
  await expect(closed.getByRole('img', { name: /^Line chart: / }).locator('canvas')).toHaveCount(1);
  expect(desk.unexpected).toEqual([]);
});
