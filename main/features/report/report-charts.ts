// The period's trends (contract/trends.ts, read for the period's days) drawn as vector charts with PDFKit: the
// backlog by section and the closings by reviewer per day as stacked bars, the overdue cases per day as bars,
// the weekly times (median and 90th percentile) as lines. Colours from the Okabe–Ito palette (told apart with
// the commonest colour blindness), each chart with its legend in words and its axis' figures.

import { SECTION_TITLES } from '#contract/queue.ts';
import { BACKLOG_SECTIONS, type Trends, type WeekTimes } from '#contract/trends.ts';
import { INK, keepRoom, type Pdf, QUIET, width } from '../pdf/draw.ts';

const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
const NOBODY = '#999999';
const PLOT_HEIGHT = 110;
const AXIS_WIDTH = 34;

interface Series {
  name: string;
  color: string;
  values: ReadonlyArray<number | null>;
}

interface Plot {
  left: number;
  bottom: number;
  width: number;
  max: number;
}

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least `max`. */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].map((step) => step * power).find((top) => top >= max) ?? 10 * power) as number;
}

const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/** The title, the y axis (0, half, top) with its grid lines, the x labels (a few of them): the plot's frame. */
function frame(doc: Pdf, title: string, labels: readonly string[], max: number): Plot {
  keepRoom(doc, PLOT_HEIGHT + 90);
  const left = doc.page.margins.left + AXIS_WIDTH;
  doc.font('bold').fontSize(10).fillColor(INK).text(title, doc.page.margins.left, doc.y);
  const top = doc.y + 6;
  const plot = { left, bottom: top + PLOT_HEIGHT, width: width(doc) - AXIS_WIDTH, max: niceMax(max) };
  doc.font('body').fontSize(7).fillColor(QUIET);
  for (const share of [0, 0.5, 1]) {
    const y = plot.bottom - share * PLOT_HEIGHT;
    doc.text(figure(share * plot.max), doc.page.margins.left, y - 3, {
      width: AXIS_WIDTH - 4,
      align: 'right',
    });
    doc
      .moveTo(left, y)
      .lineTo(left + plot.width, y)
      .lineWidth(share === 0 ? 0.6 : 0.25)
      .strokeColor('#AAAAAA')
      .stroke();
  }
  const step = Math.max(1, Math.ceil(labels.length / 8));
  const slot = plot.width / Math.max(1, labels.length);
  for (let index = 0; index < labels.length; index += step) {
    doc.text(labels[index] ?? '', left + (index + 0.5) * slot - 20, plot.bottom + 3, {
      width: 40,
      align: 'center',
      lineBreak: false,
    });
  }
  doc.y = plot.bottom + 14;
  return plot;
}

function legend(doc: Pdf, series: readonly Series[]): void {
  const left = doc.page.margins.left + AXIS_WIDTH;
  let x = left;
  let y = doc.y;
  doc.font('body').fontSize(8);
  for (const { name, color } of series) {
    const size = doc.widthOfString(name) + 22;
    if (x + size > left + width(doc) - AXIS_WIDTH) {
      x = left;
      y += 12;
    }
    doc
      .rect(x, y + 1, 8, 8)
      .fillColor(color)
      .fill();
    doc.fillColor(INK).text(name, x + 11, y, { lineBreak: false });
    x += size;
  }
  doc.x = doc.page.margins.left;
  doc.y = y + 22;
}

/** One bar per label, its series stacked from the axis up. */
function stackedBars(doc: Pdf, title: string, labels: readonly string[], series: readonly Series[]): void {
  const totals = labels.map((_, index) => series.reduce((sum, one) => sum + (one.values[index] ?? 0), 0));
  const plot = frame(doc, title, labels, Math.max(0, ...totals));
  const slot = plot.width / Math.max(1, labels.length);
  const scale = PLOT_HEIGHT / plot.max;
  for (let index = 0; index < labels.length; index++) {
    let base = plot.bottom;
    for (const one of series) {
      const height = (one.values[index] ?? 0) * scale;
      if (height <= 0) continue;
      doc
        .rect(plot.left + index * slot + slot * 0.15, base - height, slot * 0.7, height)
        .fillColor(one.color)
        .fill();
      base -= height;
    }
  }
  legend(doc, series);
}

/** One line per series through its points (a missing point breaks the line), each point marked. */
function lines(doc: Pdf, title: string, labels: readonly string[], series: readonly Series[]): void {
  const values = series.flatMap((one) => one.values.filter((value): value is number => value !== null));
  const plot = frame(doc, title, labels, Math.max(0, ...values));
  const slot = plot.width / Math.max(1, labels.length);
  const scale = PLOT_HEIGHT / plot.max;
  for (const one of series) {
    let drawing = false;
    one.values.forEach((value, index) => {
      if (value === null) {
        drawing = false;
        return;
      }
      const x = plot.left + (index + 0.5) * slot;
      const y = plot.bottom - value * scale;
      if (drawing) doc.lineTo(x, y);
      else doc.moveTo(x, y);
      drawing = true;
    });
    doc.lineWidth(1.2).strokeColor(one.color).stroke();
    one.values.forEach((value, index) => {
      if (value !== null)
        doc
          .circle(plot.left + (index + 0.5) * slot, plot.bottom - value * scale, 2.6)
          .fillColor(one.color)
          .fill();
    });
  }
  legend(doc, series);
}

const shortDay = (day: string) => day.slice(5);

/** The weekly times' lines: their names, colours (the palette's) and figures. */
const WEEKLY: ReadonlyArray<readonly [string, number, (week: WeekTimes) => number | null]> = [
  ['First action, median', 0, (week) => week.firstAction.medianSeconds],
  ['First action, 90th percentile', 4, (week) => week.firstAction.p90Seconds],
  ['Resolution, median', 5, (week) => week.resolution.medianSeconds],
  ['Resolution, 90th percentile', 1, (week) => week.resolution.p90Seconds],
];
const hours = (seconds: number | null) => (seconds === null ? null : seconds / 3600);

/** The four trends of the period, in the Team screen's order. */
export function drawTrendCharts(doc: Pdf, trends: Trends): void {
  const labels = trends.days.map(shortDay);
  const perDay = (points: ReadonlyArray<{ day: string; count: number }>) =>
    trends.days.map((day) =>
      points.filter((point) => point.day === day).reduce((sum, p) => sum + p.count, 0),
    );
  stackedBars(
    doc,
    'Backlog by section, at each day’s end',
    labels,
    BACKLOG_SECTIONS.map((section, index) => ({
      name: SECTION_TITLES[section],
      color: PALETTE[index % PALETTE.length] as string,
      values: perDay(trends.backlog.filter((point) => point.section === section)),
    })),
  );
  const reviewers = [...new Set(trends.closed.map((point) => point.reviewer))].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a.localeCompare(b),
  );
  stackedBars(
    doc,
    'Cases closed per day, by reviewer',
    labels,
    reviewers.map((reviewer, index) => ({
      name: reviewer ?? 'Nobody',
      color: reviewer === null ? NOBODY : (PALETTE[index % PALETTE.length] as string),
      values: perDay(trends.closed.filter((point) => point.reviewer === reviewer)),
    })),
  );
  lines(
    doc,
    'Time to first action and to resolution per week (hours)',
    trends.times.map((week) => shortDay(week.weekFrom)),
    WEEKLY.map(([name, colour, seconds]) => ({
      name,
      color: PALETTE[colour] as string,
      values: trends.times.map((week) => hours(seconds(week))),
    })),
  );
  stackedBars(doc, 'Overdue cases at each day’s end', labels, [
    {
      name: 'Overdue against this desk’s targets',
      color: PALETTE[5] as string,
      values: perDay(trends.overdue),
    },
  ]);
}
