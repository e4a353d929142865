import { AlarmClock, Circle, CircleCheck, Server } from 'lucide-react';
import type { TeamMemberFigures, TeamOverview } from '#contract/team-overview.ts';
import { StatusBadge } from '#renderer/ui/StatusBadge.tsx';
import { Tag } from '#renderer/ui/Tag.tsx';

const COUNTS = ['Holding', 'Overdue', 'Closed today', 'Closed this week'];

const isHub = (member: TeamMemberFigures) => member.hubs > 0 && member.desks === 0;

function roleOf(member: TeamMemberFigures) {
  if (isHub(member)) return 'Hub';
  return member.role === 'lead' ? <Tag tone="info">Lead</Tag> : 'Reviewer';
}

function Presence({ member }: { member: TeamMemberFigures }) {
  if (member.desks > 0) return <StatusBadge tone="success" icon={CircleCheck} label="Online" />;
  if (isHub(member)) return <StatusBadge tone="info" icon={Server} label="Hub running" />;
  return <StatusBadge tone="neutral" icon={Circle} label="Offline" />;
}

/** One row per reviewer: role, online, cases held and overdue, closed today and this week. */
export function ReviewersTable({ overview }: { overview: TeamOverview }) {
  const { members, closed } = overview;
  const byReviewers = members.reduce(
    (sum, member) => ({ today: sum.today + member.closedToday, week: sum.week + member.closedThisWeek }),
    { today: 0, week: 0 },
  );
  return (
    <div className="table-frame">
      <table className="data-table team-table">
        <caption className="visually-hidden">
          Each reviewer: role, whether online, cases held and overdue, cases closed today and this week
        </caption>
        <thead>
          <tr>
            <th scope="col">Reviewer</th>
            <th scope="col">Role</th>
            <th scope="col">Online</th>
            {COUNTS.map((count) => (
              <th key={count} scope="col" className="number">
                {count}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.login}>
              <th scope="row">
                {member.login}
                {member.me && <span className="team-muted"> (you)</span>}
                {!member.member && <span className="team-muted"> (no longer in the team)</span>}
              </th>
              <td>{roleOf(member)}</td>
              <td>
                <Presence member={member} />
              </td>
              <td className="number">{member.holding}</td>
              <td className="number">
                {member.overdue > 0 ? (
                  <Tag tone="warning" icon={AlarmClock} title="Held cases past their section’s target">
                    {member.overdue}
                  </Tag>
                ) : (
                  0
                )}
              </td>
              <td className="number">{member.closedToday}</td>
              <td className="number">{member.closedThisWeek}</td>
            </tr>
          ))}
        </tbody>
        {(closed.today > byReviewers.today || closed.thisWeek > byReviewers.week) && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>
                Closed with no reviewer’s action on the case
              </th>
              <td className="number">{closed.today - byReviewers.today}</td>
              <td className="number">{closed.thisWeek - byReviewers.week}</td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
