import { topicText } from '#contract/event-topics.ts';
import { Dialog } from '#renderer/ui/Dialog.tsx';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { useEventLogStore } from './event-log-store.ts';

/** The event opened from its row: when and how it arrived, and the event itself as the service sent it. */
export function EventDetailDialog() {
  const detail = useEventLogStore((state) => state.detail);
  const { closeDetail, setCustomerId } = useEventLogStore.getState();
  const data = detail?.data ?? null;
  const title = data ? topicText(data.event.topic, data.reason) : 'Event';
  return (
    <Dialog open={detail !== null} title={title} onClose={closeDetail}>
      {detail?.problem && <p role="alert">{detail.problem}</p>}
      {!data && !detail?.problem && <p role="status">Loading the event…</p>}
      {data && (
        <div className="event-detail">
          <dl className="facts event-detail-facts">
            <dt>Topic</dt>
            <dd>
              <code>{data.event.topic}</code>
            </dd>
            <dt>Customer</dt>
            <dd>{data.event.customerName ?? data.event.customerId ?? '—'}</dd>
            <dt>Sent at</dt>
            <dd>{formatDateTime(data.event.created)}</dd>
            <dt>Received at</dt>
            <dd>{formatDateTime(data.event.receivedAt)}</dd>
            <dt>Delivery id</dt>
            <dd>
              <code>{data.deliveryId}</code>
            </dd>
            <dt>Signature</dt>
            <dd>
              {data.event.signatureVerified
                ? 'Verified: signed with the secret of Vetted’s subscription'
                : 'Not signed: fetched from the service while catching up'}
            </dd>
            <dt>Duplicates</dt>
            <dd>{data.event.duplicatesSeen}</dd>
          </dl>
          <h3 className="event-detail-heading">Payload</h3>
          {data.payload ? (
            // A scroller the keyboard can reach: the payload may be wider or taller than the dialog.
            <section className="event-payload" aria-label="Payload">
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroller must take focus to scroll by keyboard. */}
              <pre className="code-block" tabIndex={0}>
                {data.payload}
              </pre>
            </section>
          ) : (
            <p>{data.payloadProblem}</p>
          )}
          {data.event.customerId && (
            <div className="actions">
              <button
                type="button"
                onClick={() => {
                  setCustomerId(data.event.customerId ?? '');
                  closeDetail();
                }}
              >
                Show only this customer’s events
              </button>
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
