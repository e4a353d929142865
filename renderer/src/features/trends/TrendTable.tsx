import { SecondsOrNone } from '#renderer/ui/time.tsx';
import type { TrendFigure } from './trend-figures.ts';
import { longDay } from './trend-format.ts';

/** A figure's numbers as a table: a row per day (or week), a column per series; what the chart draws. */
export function TrendTable({ figure }: { figure: TrendFigure }) {
  return (
    <div className="table-frame">
      <table className="data-table trend-table">
        <caption className="visually-hidden">
          {figure.title}: {figure.description}
        </caption>
        <thead>
          <tr>
            <th scope="col">{figure.rowHeader}</th>
            {figure.series.map((series) => (
              <th key={series.label} scope="col" className="number">
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {figure.rows.map((day, row) => (
            <tr key={day}>
              <th scope="row">
                <time dateTime={day}>{longDay(day)}</time>
              </th>
              {figure.series.map((series) => (
                <td key={series.label} className="number">
                  {figure.unit === 'seconds' ? (
                    <SecondsOrNone seconds={series.values[row] ?? null} />
                  ) : (
                    series.values[row]
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
