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
import { controlListener, type ListenerControl } from './listener-control.ts';
import { createNotify } from './notify.ts';
import { createReceiver, type Receiver } from './receiver.ts';
import type { SubscriptionSecrets } from './subscription-secrets.ts';
import { createSubscriptions, type Subscriptions } from './subscriptions.ts';
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
  /**
   * No screen looks (the hub): events recorded are not announced as event rows, so no customer's name is read
   * from the journal for each delivery.
   */
  headless?: boolean;
}

/** The Webhooks screen's channels and the figures Diagnostics shows, whoever listens (main/variant/ chooses). */
export type DeskWebhooks = Feature<WebhookChannel> & { figures(): WebhookFigures };

/** What the channels work with: the listener, the subscriptions, the receiver, the catch-up, and tasks. */
interface WebhooksDesk {
  context: DeskContext;
  options: WebhooksOptions;
  subs: Subscriptions;
  receiver: Receiver;
  listener: ListenerControl;
  catchUp: ReturnType<typeof createCatchUp>;
  /** Background work `close` waits for. */
  tasks: Set<Promise<unknown>>;
  closed: boolean;
}

function inBackground({ tasks, context }: WebhooksDesk, task: Promise<unknown>): void {
  const tracked = task
    .catch((error: unknown) => context.log.warn('webhooks background task failed', describeError(error)))
    .finally(() => tasks.delete(tracked));
  tasks.add(tracked);
}

async function overview({ context, subs, listener }: WebhooksDesk): Promise<WebhooksOverview> {
  await listener.ready;
  const base = {
    max: MAX_SUBSCRIPTIONS,
    listener: listener.status(),
    publicUrl: context.settings.get().publicWebhookUrl ?? null,
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
      problem: failureMessage(error, context.log, 'listing the subscriptions'),
    };
  }
}

/** In sandbox mode the subscription follows the listener to its address; a failure is only logged. */
async function subscribeListener({ subs, context }: WebhooksDesk): Promise<void> {
  await subs.ensureListenerSubscribed().catch((error: unknown) => {
    context.log.warn('could not subscribe the listener', describeError(error));
  });
}

async function listenAgain(desk: WebhooksDesk): Promise<ListenerStatus> {
  const status = await desk.listener.restart();
  await subscribeListener(desk);
  return status;
}

async function checkTunnelNow({ context, options, subs, listener, receiver }: WebhooksDesk) {
  await listener.ready;
  const publicUrl = context.settings.get().publicWebhookUrl ?? null;
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
}

/** The sandbox gets our listener subscribed, then whatever was missed meanwhile is fetched and processed. */
async function subscribeAndCatchUp(desk: WebhooksDesk): Promise<void> {
  await desk.listener.ready;
  await subscribeListener(desk);
  if (!desk.closed) await desk.catchUp.run();
}

function webhookHandlers(desk: WebhooksDesk): Pick<Handlers, WebhookChannel> {
  const { subs, listener } = desk;
  return {
    'webhooks.list': () => overview(desk),
    'webhooks.subscribe': async ({ url }) => {
      await listener.ready;
      return subs.create(url);
    },
    'webhooks.setPaused': ({ id, paused }) => subs.setPaused(id, paused),
    'webhooks.delete': async ({ id }) => {
      await subs.remove(id);
      return { id };
    },
    'webhooks.listen': () => listenAgain(desk),
    'webhooks.checkTunnel': () => checkTunnelNow(desk),
    'webhooks.catchUp': () => desk.catchUp.run(),
    ...eventLogHandlers(desk.context.journal, desk.receiver.writer),
  };
}

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
  const subs = createSubscriptions(context, () => listener.url(), secrets);
  // Never in a log line, even by accident.
  for (const secret of subs.secrets()) log.addSecret(secret);
  const receiver = createReceiver({
    journal,
    reconciler: context.reconciler,
    events,
    log,
    notify: createNotify(context.notifier),
    secrets: () => subs.secrets(),
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
    ...(options.headless ? { headless: true } : {}),
  });
  // Made before the listener starts: it notes what the journal held until then.
  const catchUp = createCatchUp({ context, receiver, subscriptions: subs, stopped: () => desk.closed });
  const listener = controlListener({
    port: () => options.port ?? settings.get().webhookPort,
    limits: options.limits ?? {},
    rejected: () => receiver.rejected,
    onStatus: (status) => events.emit('webhooks.listener', status),
    handlers: receiver.handlers,
  });
  const desk: WebhooksDesk = {
    context,
    options,
    subs,
    receiver,
    listener,
    catchUp,
    tasks: new Set(),
    closed: false,
  };

  return {
    handlers: webhookHandlers(desk),
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
      if (changed.includes('webhookPort')) await listenAgain(desk);
    },
    // After start-up and every reconnection (unless no service is set up).
    onConnected() {
      if (context.connection().status().state === 'not-configured') return;
      inBackground(desk, subscribeAndCatchUp(desk));
    },
    async close() {
      desk.closed = true;
      await listener.close();
      await receiver.close(() => Promise.allSettled([...desk.tasks]));
    },
  };
}
