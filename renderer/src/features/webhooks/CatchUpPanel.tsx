import type { CatchUpResult } from '#contract/webhooks.ts';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import { plural, useWebhooksStore } from './webhooks-store.ts';

/**
 * Events the service recorded while Vetted was closed or out of reach: fetched and processed on
 * demand (main also does it at start-up and after reconnecting). A paused subscription is the one
 * gap catching up cannot fill by itself, so it is offered to be resumed.
 */
export function CatchUpPanel() {
  const result = useWebhooksStore((state) => state.catchUp);
  const running = useWebhooksStore((state) => state.catchingUp);
  return (
    <section className="webhooks-section" aria-labelledby="catch-up-title">
      <h3 id="catch-up-title">Missed events</h3>
      <p className="hint">
        Fetches from the service the events recorded while Vetted was closed or offline, and brings the
        customers they name up to date.
      </p>
      <ReasonButton
        unavailable={null}
        busy={running}
        onClick={() => void useWebhooksStore.getState().runCatchUp()}
      >
        {running ? 'Catching up…' : 'Catch up'}
      </ReasonButton>
      <p role="status" className="webhooks-notice">
        {result && summaryOf(result)}
      </p>
      {result && result.pausedSubscriptions.length > 0 && <PausedOffer result={result} />}
    </section>
  );
}

function summaryOf(result: CatchUpResult): string {
  const caught = `Caught up: ${plural(result.recorded, 'missed event')} fetched, ${plural(result.processed, 'event')} processed.`;
  return result.message ? `${caught} ${result.message}` : caught;
}

/** The service sends nothing to a paused subscription; resuming it sends again what was held back. */
function PausedOffer({ result }: { result: CatchUpResult }) {
  const pending = useWebhooksStore((state) => state.pending);
  return (
    <div className="notice notice-warning">
      <p>
        {result.pausedSubscriptions.length === 1
          ? 'A subscription of Vetted is paused'
          : `${result.pausedSubscriptions.length} subscriptions of Vetted are paused`}
        : the service sends no events to it until it is resumed. Resuming sends again what was missed
        meanwhile.
      </p>
      <ul>
        {result.pausedSubscriptions.map((subscription) => {
          const busy = pending.has(subscription.id);
          return (
            <li key={subscription.id}>
              <span className="webhooks-url">{subscription.url}</span>{' '}
              <button
                type="button"
                aria-label={`Resume the subscription to ${subscription.url}`}
                aria-disabled={busy || undefined}
                onClick={() => {
                  if (!busy) void useWebhooksStore.getState().setPaused(subscription, false);
                }}
              >
                Resume
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
