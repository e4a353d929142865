import { Timer } from 'lucide-react';
import { Fragment } from 'react';
import { SECTION_TITLES } from '#contract/queue.ts';
import type { TeamOverview, TimeFigure } from '#contract/team-overview.ts';
import { EmptyState } from '#renderer/ui/EmptyState.tsx';
import { SecondsOrNone } from '#renderer/ui/time.tsx';

function Figure({ figure }: { figure: TimeFigure }) {
  return (
    <>
      <td className="number">
        <SecondsOrNone seconds={figure.medianSeconds} />
      </td>
      <td className="number">
        <SecondsOrNone seconds={figure.p90Seconds} />
      </td>
    </>
  );
}

/** Per section: visits begun in the window, time to a first action and to resolution (median, 90th percentile). */
export function SectionTimes({ overview }: { overview: TeamOverview }) {
  if (overview.sections.length === 0) {
    return (
      <EmptyState icon={Timer} title="No case entered a section in the last 30 days">
        Times appear once cases move through the queue.
      </EmptyState>
    );
  }
  return (
    <div className="table-frame">
      <table className="data-table team-table">
        <caption className="visually-hidden">
          Time to first action and to resolution in each section, for cases that entered it in the last 30
          days
        </caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Section
            </th>
            <th scope="col" rowSpan={2} className="number">
              Entered (30 days)
            </th>
            <th scope="colgroup" colSpan={2} className="team-group">
              Time to first action
            </th>
            <th scope="colgroup" colSpan={2} className="team-group">
              Time to resolution
            </th>
          </tr>
          <tr>
            {(['firstAction', 'resolution'] as const).map((figure) => (
              <Fragment key={figure}>
                <th scope="col" className="number">
                  Median
                </th>
                <th scope="col" className="number">
                  90th percentile
                </th>
              </Fragment>
            ))}
          </tr>
        </thead>
        <tbody>
          {overview.sections.map((row) => (
            <tr key={row.section}>
              <th scope="row">{SECTION_TITLES[row.section]}</th>
              <td className="number">{row.entered}</td>
              <Figure figure={row.firstAction} />
              <Figure figure={row.resolution} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
