// Webhooks on a desk in team mode: the team's hub is the one listener (one subscription, one tunnel, for the
// whole team), so this desk listens for nothing and changes reach it through the team store. The Webhooks
// screen still shows the team's event log and security log (they live in the team store); whatever would
// change the listener or the subscriptions is refused in words that say where it is done.
import { DeskError } from '#contract/errors.ts';
import { MAX_SUBSCRIPTIONS, type WebhookChannel } from '#contract/webhooks.ts';
import { latencyRecorder, type WebhookFigures } from '../features/diagnostics/metrics.ts';
import type { DeskContext, Feature } from '../features/feature.ts';
import { eventLogHandlers } from '../features/webhooks/event-log.ts';
import type { Handlers } from '../ground/serve.ts';

export const HUB_LISTENS =
  "In team mode the team's hub receives the service's webhooks; this desk gets every change from the team store.";

const refuse = (): never => {
  throw new DeskError('TeamHubListens', `${HUB_LISTENS} Manage subscriptions and the tunnel on the hub.`);
};

/** Nothing to flush: this desk writes no events, the hub does. */
const noWriter = { flush: async () => undefined };

export function teamDeskWebhooksFeature(
  context: DeskContext,
): Feature<WebhookChannel> & { figures(): WebhookFigures } {
  const listener = {
    listening: false,
    url: null,
    port: null,
    configuredPort: context.settings.get().webhookPort,
    problem: HUB_LISTENS,
    rejected: 0,
  };
  const handlers: Pick<Handlers, WebhookChannel> = {
    'webhooks.list': async () => ({
      subscriptions: null,
      max: MAX_SUBSCRIPTIONS,
      listener,
      publicUrl: null,
      defaultUrl: null,
      problem: HUB_LISTENS,
    }),
    'webhooks.subscribe': refuse,
    'webhooks.setPaused': refuse,
    'webhooks.delete': refuse,
    'webhooks.listen': refuse,
    'webhooks.checkTunnel': refuse,
    'webhooks.catchUp': refuse,
    ...eventLogHandlers(context.journal, noWriter),
  };
  const none = latencyRecorder(1).summary();
  const figures = (): WebhookFigures => ({
    deliveries: 0,
    duplicates: 0,
    refusals: 0,
    inboxBacklog: 0,
    eventsBehind: 0,
    reconcileBacklog: 0,
    refreshes: 0,
    ingest: none,
    eventToScreen: none,
  });
  return { handlers, figures };
}
