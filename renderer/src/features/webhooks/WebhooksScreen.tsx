import { useWatch } from '#renderer/shared/data/watch.ts';
import { CatchUpPanel } from './CatchUpPanel.tsx';
import { ListenerPanel } from './ListenerPanel.tsx';
import { SubscriptionsPanel } from './SubscriptionsPanel.tsx';
import { TunnelPanel } from './TunnelPanel.tsx';
import { useWebhooksStore } from './webhooks-store.ts';

/** Where the service's events come in: subscriptions, catching up, the tunnel and the listener. */
export function WebhooksScreen() {
  const overview = useWebhooksStore((state) => state.overview);
  const problem = useWebhooksStore((state) => state.problem);

  useWatch(useWebhooksStore.getState().watch);

  return (
    <section className="webhooks" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      {problem && <p role="alert">{problem}</p>}
      {overview ? (
        <>
          <SubscriptionsPanel overview={overview} />
          <CatchUpPanel />
          <TunnelPanel overview={overview} />
          <ListenerPanel listener={overview.listener} />
        </>
      ) : (
        !problem && <p>Loading webhooks…</p>
      )}
    </section>
  );
}
