import { isServiceId, unusableIdMessage } from '#contract/service-id.ts';
import type { ListenerStatus, WebhookChannel, WebhooksOverview } from '#contract/webhooks.ts';
import { MAX_SUBSCRIPTIONS } from '#contract/webhooks.ts';
import { failureMessage } from '#main/data/failures.ts';
import { describeError } from '#main/ground/log/logger.ts';
import type { Handlers } from '#main/ground/serve.ts';
import type { WebhookFigures } from '../diagnostics/metrics.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { createCatchUp } from './catch-up.ts';
import { eventLogHandlers } from './event-log.ts';
import type { ListenerLimits } from './listener.ts';
import { controlListener } from './listener-control.ts';
import { createNotify } from './notify.ts';
import { createReceiver } from './receiver.ts';
import type { SubscriptionSecrets } from './subscription-secrets.ts';
import { createSubscriptions } from './subscriptions.ts';
import { checkTunnel } from './tunnel-check.ts';

export { showNatively } from './notify.ts';

/** For tests and the bench; the app uses the defaults and the port in settings. */
export interface WebhooksOptions {
  /** Overrides the port in settings (0: any free port). */
  port?: number;
  limits?: Partial<ListenerLimits>;
  /** After a failed refresh, when to try unprocessed events again. */
  retryDelayMs?: number;
  tunnelTimeoutMs?: number;
}

/** The Webhooks screen's channels and the figures Diagnostics shows, whoever listens (main/variant/ chooses). */
export type DeskWebhooks = Feature<WebhookChannel> & { figures(): WebhookFigures };

/**
 * Webhooks: the listener (started with the desk, stopped on close), subscriptions, the event log,
 * catching up on missed events, and notifications of status changes learnt from events. `secrets`: where
 * the subscriptions' secrets are kept, loaded already (main/variant/ chooses).
 */
export function webhooksFeature(
  context: DeskContext,
  secrets: SubscriptionSecrets,
  options: WebhooksOptions = {},
): DeskWebhooks & {
  listening(): Promise<ListenerStatus>;
  subscribePublicUrl(): Promise<void>;
} {
  const { journal, events, log, settings } = context;
  let closed = false;

  const subs = createSubscriptions(context, () => listener.url(), secrets);
  // Never in a log line, even by accident.
  for (const secret of subs.secrets()) log.addSecret(secret);
  const receiver = createReceiver({
    journal,
    reconciler: context.reconciler,
    events,
    log,
    notify: createNotify(settings, events),
    secrets: () => subs.secrets(),
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
  });
  // Made before the listener starts: it notes what the journal held until then.
  const catchUp = createCatchUp({
    context,
    receiver,
    subscriptions: subs,
    stopped: () => closed,
  });

  const listener = controlListener({
    port: () => options.port ?? settings.get().webhookPort,
    limits: options.limits ?? {},
    rejected: () => receiver.rejected,
    onStatus: (status) => events.emit('webhooks.listener', status),
    handlers: receiver.handlers,
  });

  const tasks = new Set<Promise<unknown>>();
  const inBackground = (task: Promise<unknown>) => {
    const tracked = task
      .catch((error: unknown) => log.warn('webhooks background task failed', describeError(error)))
      .finally(() => tasks.delete(tracked));
    tasks.add(tracked);
  };

  const overview = async (): Promise<WebhooksOverview> => {
    await listener.ready;
    const base = {
      max: MAX_SUBSCRIPTIONS,
      listener: listener.status(),
      publicUrl: settings.get().publicWebhookUrl ?? null,
      defaultUrl: subs.defaultUrl(),
    };
    try {
      const listed = await subs.list();
      // One the service names by an id no channel can carry is left out, and named: never the whole list.
      const refused = listed.filter((one) => !isServiceId(one.id));
      const problem = refused.length
        ? `${refused.map((one) => unusableIdMessage('subscription', one.id)).join(' ')} Manage it on the service itself.`
        : null;
      return { ...base, subscriptions: listed.filter((one) => isServiceId(one.id)), problem };
    } catch (error) {
      return {
        ...base,
        subscriptions: null,
        problem: failureMessage(error, log, 'listing the subscriptions'),
      };
    }
  };

  const listenAgain = async () => {
    const status = await listener.restart();
    // In sandbox mode the subscription follows the listener to its new address.
    await subs.ensureListenerSubscribed().catch((error: unknown) => {
      log.warn('could not subscribe the listener', describeError(error));
    });
    return status;
  };

  const handlers: Pick<Handlers, WebhookChannel> = {
    'webhooks.list': () => overview(),
    'webhooks.subscribe': async ({ url }) => {
      await listener.ready;
      return subs.create(url);
    },
    'webhooks.setPaused': ({ id, paused }) => subs.setPaused(id, paused),
    'webhooks.delete': async ({ id }) => {
      await subs.remove(id);
      return { id };
    },
    'webhooks.listen': listenAgain,
    'webhooks.checkTunnel': async () => {
      await listener.ready;
      const publicUrl = settings.get().publicWebhookUrl ?? null;
      const subscribed = publicUrl
        ? await subs
            .list()
            .then((list) => list.some((s) => s.ours && s.target === 'public-url'))
            .catch(() => null)
        : null;
      return checkTunnel({
        publicUrl,
        listenerUrl: listener.url(),
        probes: receiver.probes,
        subscribed,
        inSandbox: context.connection().mode === 'sandbox',
        ...(options.tunnelTimeoutMs === undefined ? {} : { timeoutMs: options.tunnelTimeoutMs }),
      });
    },
    'webhooks.catchUp': () => catchUp.run(),
    ...eventLogHandlers(journal, receiver.writer),
  };

  return {
    handlers,
    figures: () => receiver.figures(),
    // The hub, on a real service: its tunnel's public URL is subscribed when it takes the listener role.
    subscribePublicUrl: () => subs.ensurePublicUrlSubscribed(),
    // The hub prints where it listens (the tunnel must point there).
    async listening() {
      await listener.ready;
      return listener.status();
    },
    async onSettingsChanged(changed) {
      // The tunnel points at the port: a new port means listening there now, not after a restart.
      if (changed.includes('webhookPort')) await listenAgain();
    },
    // After start-up and every reconnection: the sandbox gets our listener subscribed, then whatever
    // was missed meanwhile is fetched and processed.
    onConnected() {
      if (context.connection().status().state === 'not-configured') return;
      inBackground(
        (async () => {
          await listener.ready;
          await subs.ensureListenerSubscribed().catch((error: unknown) => {
            log.warn('could not subscribe the listener', describeError(error));
          });
          if (!closed) await catchUp.run();
        })(),
      );
    },
    async close() {
      closed = true;
      await listener.close();
      await receiver.close(() => Promise.allSettled([...tasks]));
    },
  };
}
