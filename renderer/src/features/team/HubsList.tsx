import { CircleOff, Server } from 'lucide-react';
import type { TeamHub } from '#contract/team-overview.ts';
import { StatusBadge } from '#renderer/ui/StatusBadge.tsx';

/**
 * The team's hubs, apart from its reviewers (a hub is not a person): each running or stopped. With none
 * running, the team receives no webhooks, which a lead should read here rather than guess from a quiet queue.
 */
export function HubsList({ hubs }: { hubs: TeamHub[] }) {
  const anyRunning = hubs.some((hub) => hub.running > 0);
  return (
    <>
      <ul className="team-hubs" aria-labelledby="team-hubs">
        {hubs.map((hub) => (
          <li key={hub.login}>
            <span className="team-login">{hub.login}</span>
            {hub.running > 0 ? (
              <StatusBadge
                tone="success"
                icon={Server}
                label={hub.running > 1 ? `Running (${hub.running})` : 'Running'}
              />
            ) : (
              <StatusBadge tone={anyRunning ? 'neutral' : 'warning'} icon={CircleOff} label="Stopped" />
            )}
          </li>
        ))}
      </ul>
      {!anyRunning && (
        <p className="team-muted">No hub is running: the team receives no webhooks until one starts.</p>
      )}
    </>
  );
}
