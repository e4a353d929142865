import { useEffect } from 'react';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { broughtText, offerSize, offerText, useHistoryStore } from './history-store.ts';

/**
 * In the join form: bring this desk's own history into the team (yes unless unticked), and what that is.
 * Nothing is brought twice, so joining again, or bringing again after an interruption, is safe.
 */
export function HistoryChoice() {
  const { offer, wanted, setWanted, loadOffer } = useHistoryStore();
  useEffect(() => {
    void loadOffer();
  }, [loadOffer]);
  if (!offer) return null;
  if (offerSize(offer) === 0) return null;
  return (
    <fieldset className="history-choice">
      <legend>This desk’s history</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={wanted}
          aria-describedby="history-what"
          onChange={(event) => setWanted(event.target.checked)}
        />
        Bring my history into the team
      </label>
      <p id="history-what" className="hint">
        {offerText(offer)}. Each comes over once, under your name, marked as brought from this desk with the
        time you did it. Drafts waiting to be sent go to the team outbox either way.
      </p>
    </fieldset>
  );
}

/** Once joined: how bringing goes, what it brought, or a button to bring it (declined, or interrupted). */
export function HistoryProgressLine({ joinedJustNow }: { joinedJustNow: boolean }) {
  const { offer, bringing, progress, brought, problem, bring, watch } = useHistoryStore();
  useWatch(watch);
  const line = bringing
    ? progress
      ? `Bringing this desk’s history: ${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')}…`
      : 'Bringing this desk’s history…'
    : brought
      ? broughtText(brought)
      : null;
  const canBring = joinedJustNow && !bringing && !brought && !!offer && offerSize(offer) > 0;
  if (!line && !problem && !canBring) return null;
  return (
    <div className="history-progress">
      {line && <p role="status">{line}</p>}
      {problem && <p role="alert">Your history was not all brought: {problem} Bringing again finishes it.</p>}
      {canBring && (
        <button type="button" onClick={() => void bring()}>
          {problem ? 'Bring my history again' : 'Bring this desk’s history into the team'}
        </button>
      )}
    </div>
  );
}
