import type { ListenerStatus } from '#contract/webhooks.ts';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import { RefusedRequests } from './RefusedRequests.tsx';
import { useWebhooksStore } from './webhooks-store.ts';

/** The local listener the service (or the tunnel) delivers to. */
export function ListenerPanel({ listener }: { listener: ListenerStatus }) {
  const relistening = useWebhooksStore((state) => state.relistening);
  return (
    <section className="webhooks-section" aria-labelledby="listener-title">
      <h3 id="listener-title">Listener</h3>
      <dl className="facts">
        <dt>State</dt>
        <dd>
          <span className={`connection connection-${listener.listening ? 'online' : 'offline'}`}>
            {listener.listening ? 'Running' : 'Not running'}
          </span>
        </dd>
        <dt>Address</dt>
        <dd>{listener.url ?? '—'}</dd>
        <dt>Port</dt>
        <dd>
          {listener.port ?? '—'}
          {listener.port !== null && listener.port !== listener.configuredPort && (
            <span className="hint"> (Settings say {listener.configuredPort})</span>
          )}
        </dd>
        <dt>Refused</dt>
        <dd>
          {listener.rejected === 1 ? '1 request' : `${listener.rejected} requests`} since Vetted started
        </dd>
      </dl>
      {listener.problem && <p className="notice notice-warning">{listener.problem}</p>}
      <ReasonButton
        unavailable={null}
        busy={relistening}
        onClick={() => void useWebhooksStore.getState().listenAgain()}
      >
        {relistening ? 'Listening…' : 'Listen again'}
      </ReasonButton>{' '}
      <small className="hint">On the port in Settings, after it changed there.</small>
      <RefusedRequests />
    </section>
  );
}
