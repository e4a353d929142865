import type { TunnelCheck, WebhooksOverview } from '#contract/webhooks.ts';
import { useAppStore } from '#renderer/store.ts';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import { useWebhooksStore } from './webhooks-store.ts';

/**
 * The tunnel (cloudflared, ngrok, any reverse proxy) that gives the listener a public https URL.
 * "Check" sends a request through it and sees whether the listener got it.
 */
export function TunnelPanel({ overview }: { overview: WebhooksOverview }) {
  const tunnel = useWebhooksStore((state) => state.tunnel);
  const checking = useWebhooksStore((state) => state.checkingTunnel);
  const { publicUrl, listener } = overview;
  return (
    <section className="webhooks-section" aria-labelledby="tunnel-title">
      <h3 id="tunnel-title">Tunnel</h3>
      <dl className="facts">
        <dt>Public URL</dt>
        <dd>
          {publicUrl ?? 'Not set'}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => useAppStore.getState().show('settings')}
          >
            {publicUrl ? 'Change in Settings' : 'Set in Settings'}
          </button>
        </dd>
        <dt>Forwards to</dt>
        <dd>{listener.url ?? 'Nothing: the listener is not running'}</dd>
      </dl>
      <ReasonButton
        unavailable={null}
        busy={checking}
        onClick={() => void useWebhooksStore.getState().checkTunnel()}
      >
        {checking ? 'Checking…' : 'Check tunnel'}
      </ReasonButton>
      <p role="status" className="webhooks-notice">
        {tunnel && !failed(tunnel) && tunnel.message}
      </p>
      {tunnel && failed(tunnel) && (
        <p role="alert" className="test-result notice notice-danger">
          {tunnel.message}
        </p>
      )}
      {tunnel && <SubscribedNote check={tunnel} />}
    </section>
  );
}

/** No public URL is a state to explain (none is needed on the sandbox), not a failure to alarm about. */
const failed = (check: TunnelCheck) => !check.ok && check.reason !== 'not-set';

/** A working tunnel is of no use until a subscription delivers through it. */
function SubscribedNote({ check }: { check: TunnelCheck }) {
  if (check.subscribed !== false) return null;
  return (
    <p className="hint">No subscription of Vetted delivers to the public URL yet: subscribe it above.</p>
  );
}
