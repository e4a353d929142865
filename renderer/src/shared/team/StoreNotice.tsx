import { CloudCheck, CloudOff } from 'lucide-react';
import { durationLong, durationShort } from '#renderer/ui/time.tsx';
import { useWatch } from '../data/watch.ts';
import { type StoreNotice as Notice, useStorePresenceStore } from './store-presence-store.ts';

/**
 * The main screen's word on the team store, once it has been away longer than a failover takes: what still
 * works and what waits. A polite status, never a dialog: the reviewer carries on. Only this component follows
 * the clock (the store's one timer), so the rest of the screen is not drawn again as the seconds pass.
 */
export function StoreNotice() {
  const notice = useStorePresenceStore((state) => state.notice);
  useWatch(useStorePresenceStore.getState().watch);
  return (
    // Always there, so that a screen reader hears what appears in it.
    <div role="status" aria-label="Team store" className="store-notice">
      {notice && <StoreNoticeWords notice={notice} />}
    </div>
  );
}

/** "12 s" on screen for the first minute, then "3 min"; a screen reader hears it in words, once a minute. */
const shortFor = (ms: number) => (ms < 60_000 ? `${Math.floor(ms / 1_000)} s` : durationShort(ms));

export function StoreNoticeWords({ notice }: { notice: NonNullable<Notice> }) {
  if (notice.kind === 'back') {
    return (
      <p className="notice notice-success">
        <CloudCheck aria-hidden="true" className="notice-icon" />
        <span>
          The team store answers again: drafts that waited are on their way, and notes, claims and approvals
          can be done again.
        </span>
      </p>
    );
  }
  return (
    <p className="notice notice-warning">
      <CloudOff aria-hidden="true" className="notice-icon" />
      <span>
        <strong>
          The team store has not answered for <span aria-hidden="true">{shortFor(notice.forMs)}</span>
          <span className="visually-hidden">{durationLong(notice.forMs)}</span>.
        </strong>{' '}
        This desk keeps working from its own copy: drafts you submit wait here and are sent once it answers.
        Notes, claims and approvals need the store: they can be done once it answers.
      </span>
    </p>
  );
}
