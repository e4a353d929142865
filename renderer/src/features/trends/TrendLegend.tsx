import { seriesStyle } from './series-style.ts';
import type { TrendFigure } from './trend-figures.ts';

/**
 * Which line is which: each series' name beside a sample of its line, in its colour and with its dash (SVG in
 * currentColor, so forced colours draw it in the system's); to a screen reader, the names.
 */
export function TrendLegend({ figure }: { figure: TrendFigure }) {
  return (
    <ul className="trend-legend" aria-label="Lines">
      {figure.series.map((series, index) => {
        const style = seriesStyle(index);
        return (
          <li key={series.label}>
            <svg
              aria-hidden="true"
              className={`trend-swatch trend-ink-${style.ink}`}
              viewBox="0 0 28 8"
              width="28"
              height="8"
            >
              <line
                x1="0"
                y1="4"
                x2="28"
                y2="4"
                stroke="currentColor"
                strokeWidth="2"
                strokeDasharray={style.dash.length > 0 ? style.dash.join(' ') : undefined}
              />
              <circle cx="14" cy="4" r="2.5" stroke="currentColor" strokeWidth="1.5" />
            </svg>
            <span>{series.label}</span>
          </li>
        );
      })}
    </ul>
  );
}
