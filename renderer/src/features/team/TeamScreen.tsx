import { RefreshCw, Users } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { ASK_A_LEAD, LEAD_ONLY } from '#contract/roles.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { seesTeam, useTeamViewStore } from '#renderer/shared/team/team-view-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { EmptyState } from '#renderer/ui/EmptyState.tsx';
import { formatClockTime, formatDateTime } from '#renderer/ui/time.tsx';
import { HubsList } from './HubsList.tsx';
import { PeriodReportForm } from './PeriodReportForm.tsx';
import { ReviewersTable } from './ReviewersTable.tsx';
import { SectionTimes } from './SectionTimes.tsx';

/**
 * The lead's Team screen: who is online, who holds what, what each reviewer closed, how long cases wait in
 * each section, and `trends` (the trends feature's, composed by the shell) below. Live while open. A reviewer
 * who reaches it by its address, or a solo desk, is told why there is nothing here for them.
 */
export function TeamScreen({ trends }: { trends: ReactNode }) {
  const me = useTeamViewStore((state) => state.me);
  useEffect(() => {
    void useTeamViewStore.getState().loadMe();
  }, []);
  return (
    <section className="team-screen" aria-labelledby="team-title">
      <header className="screen-header">
        <h2 id="team-title">Team</h2>
      </header>
      {me === null ? (
        <p role="status">Loading…</p>
      ) : seesTeam(me) ? (
        <TeamFigures trends={trends} />
      ) : me.mode === 'solo' ? (
        <EmptyState icon={Users} title="This desk works alone">
          The Team screen shows a team’s work: who is online, who holds what, how long cases wait. A desk on
          its own has no team; joining one (Settings → Team) changes that.
        </EmptyState>
      ) : (
        <EmptyState icon={Users} title="The Team screen is a lead’s">
          {LEAD_ONLY.viewTeam} {ASK_A_LEAD}
        </EmptyState>
      )}
    </section>
  );
}

function TeamFigures({ trends }: { trends: ReactNode }) {
  const { overview, problem, refresh } = useTeamViewStore();
  useWatch(useTeamViewStore.getState().watch);
  useEffect(() => {
    void useTeamViewStore.getState().refresh();
  }, []);
  if (!overview) return problem ? <p role="alert">{problem}</p> : <p role="status">Loading…</p>;
  const online = overview.members.filter((member) => member.desks > 0);
  return (
    <div className="team-figures">
      <div className="team-toolbar">
        <p className="team-as-of">
          As of <time dateTime={overview.at}>{formatClockTime(overview.at)}</time>. Today counts from{' '}
          <time dateTime={overview.todayFrom} title={formatDateTime(overview.todayFrom)}>
            midnight
          </time>
          , this week from{' '}
          <time dateTime={overview.weekFrom} title={formatDateTime(overview.weekFrom)}>
            Monday
          </time>{' '}
          ({overview.timeZone}).
        </p>
        <Button weight="quiet" icon={RefreshCw} onClick={() => void refresh()}>
          Refresh
        </Button>
      </div>
      {problem && <p role="alert">{problem}</p>}

      <section aria-labelledby="team-online">
        <h3 id="team-online">Online now</h3>
        {online.length === 0 ? (
          <p className="team-muted">No desk of the team is connected.</p>
        ) : (
          <ul className="team-online" aria-labelledby="team-online">
            {online.map((member) => (
              <li key={member.login}>
                <span className="team-dot" aria-hidden="true" />
                <span className="team-login">{member.login}</span>
                {member.me && <span className="team-muted"> (you)</span>}
                {member.desks > 1 && <span className="team-muted"> · {member.desks} desks</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="team-reviewers">
        <h3 id="team-reviewers">Reviewers</h3>
        <ReviewersTable overview={overview} />
      </section>

      {overview.hubs.length > 0 && (
        <section aria-labelledby="team-hubs">
          <h3 id="team-hubs">Hubs</h3>
          <HubsList hubs={overview.hubs} />
        </section>
      )}

      <section aria-labelledby="team-sections">
        <h3 id="team-sections">Time in each section</h3>
        <SectionTimes overview={overview} />
      </section>

      <section aria-labelledby="team-trends" className="team-trends">
        <h3 id="team-trends">Trends</h3>
        {trends}
      </section>

      <PeriodReportForm />
    </div>
  );
}
