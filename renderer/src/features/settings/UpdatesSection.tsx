import { useEffect } from 'react';
import type { UpdateChannel } from '#contract/updates.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { describeUpdates, useUpdatesStore } from './updates-store.ts';

const CHANNELS: ReadonlyArray<{ value: UpdateChannel; label: string }> = [
  { value: 'stable', label: 'Stable (releases only)' },
  { value: 'beta', label: 'Beta (release candidates too)' },
];

/** Settings → Updates: where updates stand, "Check for updates", the channel, "Restart now". */
export function UpdatesSection() {
  const { status, busy, problem, load, watch, check, restartNow, setChannel } = useUpdatesStore();
  useWatch(watch);
  useEffect(() => {
    void load();
  }, [load]);
  if (!status) return null;
  const locked = status.channelLocked || !status.offered;

  return (
    <section aria-labelledby="updates-title" className="updates">
      <h3 id="updates-title">Updates</h3>
      <p role={status.phase === 'error' ? 'alert' : 'status'}>{describeUpdates(status)}</p>
      {status.managedBy && (
        <p className="hint">
          Your administrator manages updates on this computer, through {status.managedBy}.
          {status.feedUrl ? ` Updates come from ${status.feedUrl}.` : ''}
        </p>
      )}
      {status.phase === 'downloading' && status.progress && (
        <progress aria-label="Update download" max={100} value={status.progress.percent} />
      )}
      {status.offered && (
        <fieldset disabled={locked || busy}>
          <legend>Update channel</legend>
          {CHANNELS.map(({ value, label }) => (
            <label key={value}>
              <input
                type="radio"
                name="updateChannel"
                checked={status.channel === value}
                onChange={() => void setChannel(value)}
              />
              {label}
            </label>
          ))}
          {status.channelLocked && <p className="hint">The channel is set by your administrator.</p>}
        </fieldset>
      )}
      {status.offered && (
        <div className="actions">
          <button
            type="button"
            onClick={() => void check()}
            disabled={busy || status.phase === 'checking' || status.phase === 'downloading'}
          >
            Check for updates
          </button>
          {status.phase === 'downloaded' && (
            <button type="button" onClick={() => void restartNow()} disabled={busy}>
              Restart now
            </button>
          )}
        </div>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
