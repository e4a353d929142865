/**
 * How each series of a chart is told apart: a colour from the design tokens (--color-chart-1…6) and a dash
 * of its own, so two series never differ by colour alone (and in forced colours, where every series takes
 * the text's colour, by their dash). The legend draws the same dash as the chart.
 */
export const INKS = 6;

/** Canvas dash patterns in pixels (solid first); the legend's SVG uses the same numbers. */
const DASHES: readonly (readonly number[])[] = [[], [8, 4], [2, 3], [10, 3, 2, 3], [5, 5], [1, 6]];

export interface SeriesStyle {
  /** 1…INKS: which --color-chart-N. */
  ink: number;
  dash: readonly number[];
}

/**
 * The nth series' look. Past six series (a big team's reviewers) the colours come round again, each time with
 * the dashes shifted by one, so no two of the first 36 look alike.
 */
export function seriesStyle(index: number): SeriesStyle {
  const round = Math.floor(index / INKS);
  return {
    ink: (index % INKS) + 1,
    dash: DASHES[(index + round) % DASHES.length] ?? [],
  };
}
