import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Axis, type Options } from 'uplot';
import { type ChartInks, useInks, useWidth } from './chart-inks.ts';
import { seriesStyle } from './series-style.ts';
import type { TrendFigure } from './trend-figures.ts';
import { shortDay, timeUnitFor } from './trend-format.ts';

/**
 * A figure as a line chart, drawn by uPlot on a canvas (this module and uPlot load only when a chart is first
 * shown: TrendFigureView imports it lazily). The canvas is an image to assistive technology, named by `label`;
 * the figure's table beside it holds the same numbers. Built again when the figure or the scheme changes; a
 * new width (a window or a split dragged) only resizes it.
 */
export default function TrendChart({ figure, label }: { figure: TrendFigure; label: string }) {
  const holder = useRef<HTMLDivElement>(null);
  const inks = useInks(holder);
  const width = useWidth(holder);
  const plot = useRef<uPlot | null>(null);
  // The width as last measured, read when the plot is built: a new width resizes the plot, never rebuilds it.
  const widthNow = useRef(width);
  widthNow.current = width;
  const measured = width > 0;
  useEffect(() => {
    const host = holder.current;
    if (!host || !inks || !measured) return;
    const built = new uPlot(chartOptions(figure, inks, widthNow.current), chartData(figure), host);
    plot.current = built;
    return () => {
      built.destroy();
      plot.current = null;
    };
  }, [figure, inks, measured]);
  useEffect(() => {
    if (width > 0 && plot.current && plot.current.width !== width)
      plot.current.setSize({ width, height: CHART_HEIGHT });
  }, [width]);
  return <div ref={holder} className="trend-chart" role="img" aria-label={label} />;
}

const CHART_HEIGHT = 220;

/** Counts go up in whole cases; the axis never shows a fraction of one. */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000];
/** Days are marked every day, two days, a week…; weeks every week, two, four. */
const DAY_STEPS = [1, 2, 7, 14, 28];

const longest = (figure: TrendFigure) =>
  Math.max(0, ...figure.series.flatMap((series) => series.values.map((value) => value ?? 0)));

/** x is the row's index (the days are the desk's calendar days, not instants); y is in the figure's unit. */
function chartData(figure: TrendFigure): AlignedData {
  const divisor = figure.unit === 'seconds' ? timeUnitFor(longest(figure)).seconds : 1;
  return [
    figure.rows.map((_, index) => index),
    ...figure.series.map((series) => series.values.map((value) => (value === null ? null : value / divisor))),
  ];
}

function axes(figure: TrendFigure, inks: ChartInks): Axis[] {
  const font = `12px ${inks.font}`;
  const common = {
    stroke: inks.text,
    font,
    grid: { stroke: inks.grid, width: 1 },
    ticks: { stroke: inks.grid, width: 1, size: 4 },
  };
  const suffix = figure.unit === 'seconds' ? ` ${timeUnitFor(longest(figure)).short}` : '';
  return [
    {
      ...common,
      grid: { show: false },
      incrs: DAY_STEPS,
      values: (_, splits) =>
        splits.map((index) => (Number.isInteger(index) ? shortDay(figure.rows[index] ?? '') : '')),
    },
    {
      ...common,
      incrs: figure.unit === 'cases' ? WHOLE_STEPS : undefined,
      values: (_, splits) => splits.map((value) => `${Number(value.toFixed(2))}${suffix}`),
      size: 56,
    },
  ];
}

function chartOptions(figure: TrendFigure, inks: ChartInks, width: number): Options {
  const last = Math.max(figure.rows.length - 1, 1);
  return {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    // The numbers are in the table: no hover readout, no drag to zoom.
    cursor: { show: false, drag: { x: false, y: false } },
    scales: {
      x: { time: false, range: [0, last] },
      // From zero, with room above the highest point; an empty figure still has an axis of 0…4.
      y: { range: (_, __, max) => [0, Math.max(figure.unit === 'cases' ? 4 : 1, (max ?? 0) * 1.1)] },
    },
    axes: axes(figure, inks),
    series: [
      {},
      ...figure.series.map((series, index) => {
        const style = seriesStyle(index);
        const ink = inks.series[style.ink - 1] ?? inks.text;
        return {
          label: series.label,
          stroke: ink,
          width: 2,
          dash: [...style.dash],
          points: { size: 6, width: 2, stroke: ink, fill: inks.canvas },
        };
      }),
    ],
  };
}
