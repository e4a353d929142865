import { useState } from 'react';
import type { SubscriptionView, WebhooksOverview } from '#contract/webhooks.ts';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { DeleteSubscriptionDialog } from './DeleteSubscriptionDialog.tsx';
import { SubscribeForm } from './SubscribeForm.tsx';
import { useWebhooksStore } from './webhooks-store.ts';

const TARGET_TEXT: Record<SubscriptionView['target'], string> = {
  listener: 'Vetted’s listener',
  'public-url': 'Vetted’s public URL',
  elsewhere: 'Elsewhere',
};

/** The application's subscriptions on the service, and a new one. */
export function SubscriptionsPanel({ overview }: { overview: WebhooksOverview }) {
  const notice = useWebhooksStore((state) => state.notice);
  const [deleting, setDeleting] = useState<SubscriptionView | null>(null);
  const { subscriptions, max } = overview;
  return (
    <section className="webhooks-section" aria-labelledby="subscriptions-title">
      <h3 id="subscriptions-title">Subscriptions</h3>
      {subscriptions === null ? (
        <p role="alert">The subscriptions could not be listed: {overview.problem}</p>
      ) : (
        <>
          <p className="hint">
            {subscriptions.length} of at most {max} per application.
          </p>
          {subscriptions.length === 0 ? (
            <p>No subscriptions: the service sends no events to Vetted.</p>
          ) : (
            <SubscriptionTable subscriptions={subscriptions} onDelete={setDeleting} />
          )}
        </>
      )}
      <p className="webhooks-notice" role="status">
        {notice?.kind === 'done' && notice.text}
      </p>
      {notice?.kind === 'failed' && <p role="alert">{notice.text}</p>}
      <SubscribeForm overview={overview} />
      <DeleteSubscriptionDialog subscription={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

interface SubscriptionTableProps {
  subscriptions: SubscriptionView[];
  onDelete(subscription: SubscriptionView): void;
}

function SubscriptionTable({ subscriptions, onDelete }: SubscriptionTableProps) {
  const pending = useWebhooksStore((state) => state.pending);
  const { setPaused } = useWebhooksStore.getState();
  return (
    <table className="data-table webhooks-table">
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Created</th>
          <th scope="col">State</th>
          <th scope="col">Delivers to</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {subscriptions.map((subscription) => {
          const busy = pending.has(subscription.id);
          const toggle = subscription.paused ? 'Resume' : 'Pause';
          return (
            <tr key={subscription.id}>
              <th scope="row" className="webhooks-url">
                {subscription.url}
              </th>
              <td>
                <time dateTime={subscription.created}>{formatDateTime(subscription.created)}</time>
              </td>
              <td>
                {subscription.paused ? (
                  <>
                    <strong>Paused</strong>
                    <small className="hint"> The service keeps its events; resuming sends them.</small>
                  </>
                ) : (
                  'Active'
                )}
              </td>
              <td>
                {TARGET_TEXT[subscription.target]}
                {!subscription.ours && (
                  <small className="hint">
                    {' '}
                    Vetted does not hold its secret, so it cannot verify what arrives through it.
                  </small>
                )}
              </td>
              <td className="webhooks-row-actions">
                {/* aria-disabled rather than disabled while busy: the focus stays on the button pressed. */}
                <button
                  type="button"
                  className="button button-secondary button-sm"
                  aria-label={`${toggle} the subscription to ${subscription.url}`}
                  aria-disabled={busy || undefined}
                  onClick={() => {
                    if (!busy) void setPaused(subscription, !subscription.paused);
                  }}
                >
                  {toggle}
                </button>
                <button
                  type="button"
                  className="button button-danger button-sm"
                  aria-label={`Delete the subscription to ${subscription.url}`}
                  aria-disabled={busy || undefined}
                  onClick={() => {
                    if (!busy) onDelete(subscription);
                  }}
                >
                  Delete
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
