import { LogOut } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { AppInfo } from '#contract/channels.ts';
import type { TeamStatus } from '#contract/team.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { useAppStore } from '#renderer/store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Dialog } from '#renderer/ui/Dialog.tsx';
import { OneFieldDialog } from '#renderer/ui/OneFieldDialog.tsx';
import { HistoryProgressLine } from './HistoryOffer.tsx';
import { JoinTeamForm } from './JoinTeamForm.tsx';
import { TeamSettingsForm } from './TeamSettingsForm.tsx';
import { HUB_TEXT, restartNotice, STORE_TEXT, useTeamStore } from './team-store.ts';

/** Settings → Team: join a team with a code, or see the team this desk is on and leave it. */
export function TeamSection() {
  const { status, problem, busy, load, watch, restart } = useTeamStore();
  const host = useAppStore((state) => state.info?.host);
  useWatch(watch);
  useEffect(() => {
    void load();
  }, [load]);
  const notice = status ? restartNotice(status, host) : null;

  return (
    <section aria-labelledby="team-title" className="team">
      {/* Focus lands here after leaving, as the controls it came from are gone. */}
      <h3 id="team-title" tabIndex={-1}>
        Team
      </h3>
      {!status && !problem && <p>Checking the team store…</p>}
      {status?.mode === 'solo' && status.kept && <KeptLine kept={status.kept} />}
      {status?.mode === 'solo' && <JoinTeamForm />}
      {status?.mode === 'team' && <TeamMembership status={status} />}
      {problem && <p role="alert">{problem}</p>}
      {notice && <RestartNotice notice={notice} host={host} busy={busy} onRestart={() => void restart()} />}
    </section>
  );
}

/** After leaving: what this desk kept, read-only, of the reviewer's work in the team. */
function KeptLine({ kept }: { kept: NonNullable<TeamStatus['kept']> }) {
  if (kept.problem) return <p role="alert">{kept.problem}</p>;
  if (kept.auditEntries + kept.notes === 0) return null;
  return (
    <p role="status">
      Kept on this desk, read-only: {kept.auditEntries.toLocaleString('en-US')} of your team audit entries (in
      Audit, marked “kept from team”) and your {kept.notes.toLocaleString('en-US')} notes on the team’s cases.
    </p>
  );
}

/** Only Electron can start itself again: a button there; browser mode's notice says how instead. */
export function RestartNotice(props: {
  notice: string;
  host: AppInfo['host'] | undefined;
  busy: boolean;
  onRestart(): void;
}) {
  return (
    <div className="restart-notice">
      <p role="status">{props.notice}</p>
      {props.host === 'electron' && (
        <button type="button" onClick={props.onRestart} disabled={props.busy}>
          Restart now
        </button>
      )}
    </div>
  );
}

function TeamMembership({ status }: { status: TeamStatus }) {
  const { busy, load, leave, changePassword } = useTeamStore();
  const [confirming, setConfirming] = useState(false);
  const [newPassword, setNewPassword] = useState(false);
  const team = status.team;
  if (!team) return null;

  return (
    <>
      <dl className="facts" aria-label="Team membership">
        <dt>Team</dt>
        <dd>{team.teamId}</dd>
        <dt>Reviewer</dt>
        <dd>{team.reviewer}</dd>
        <dt>Team store</dt>
        <dd>
          {team.host}:{team.port}/{team.database}
          {team.sslmode === 'verify-full' ? ' (TLS, certificate verified)' : ' (no TLS)'}
        </dd>
        <dt>Store</dt>
        <dd>{STORE_TEXT[status.store]}</dd>
        <dt>Hub</dt>
        <dd>{HUB_TEXT[status.hub]}</dd>
      </dl>
      {status.problem && <p role="alert">{status.problem}</p>}
      <HistoryProgressLine joinedJustNow={status.restartNeeded} />
      {status.store === 'connected' && <TeamSettingsForm />}
      <div className="actions">
        <button type="button" onClick={() => void load()} disabled={busy}>
          Check again
        </button>
        <button type="button" onClick={() => setNewPassword(true)} disabled={busy}>
          New password…
        </button>
        <Button weight="danger" icon={LogOut} onClick={() => setConfirming(true)} disabled={busy}>
          Leave team
        </Button>
      </div>
      <OneFieldDialog
        open={newPassword}
        title="A new database password"
        label="New database password"
        hint="The one your administrator gave you. Your join code stays as it is."
        secret
        action={{ label: 'Use this password', busyLabel: 'Checking…' }}
        fieldPointer="/password"
        check={(value) => (value === '' ? 'Type your new database password.' : null)}
        submit={changePassword}
        onClose={() => setNewPassword(false)}
      />
      <Dialog open={confirming} title="Leave the team?" onClose={() => setConfirming(false)}>
        <p>
          This desk forgets the team’s key, your database password and where the team store is. Your own
          journal on this computer stays, and keeps a read-only copy of your audit entries and notes from the
          team. To come back you need a join code again.
        </p>
        <div className="actions dialog-actions">
          <Button
            weight="danger"
            icon={LogOut}
            onClick={async () => {
              setConfirming(false);
              if (await leave()) document.getElementById('team-title')?.focus();
            }}
          >
            Leave team
          </Button>
          <Button data-autofocus onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      </Dialog>
    </>
  );
}
