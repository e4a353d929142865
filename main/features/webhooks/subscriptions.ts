import { randomBytes, randomUUID } from 'node:crypto';
import { DeskError } from '#contract/errors.ts';
import { isServiceId, unusableIdMessage } from '#contract/service-id.ts';
import { MAX_SUBSCRIPTIONS, type SubscriptionView } from '#contract/webhooks.ts';
import { isNotFound, retainedDates, ServiceError, type Subscription } from '#main/data/service/index.ts';
import type { DeskContext } from '../feature.ts';
import { WEBHOOK_PATH } from './listener.ts';
import type { SubscriptionSecrets } from './subscription-secrets.ts';

/**
 * The application's webhook subscriptions on the service. Vetted creates each with a fresh random
 * secret that goes straight to where secrets are kept (the vault, or a team's store) and is never
 * shown; a subscription whose secret Vetted holds is "ours", and only ours can be verified.
 */
export interface Subscriptions {
  list(): Promise<SubscriptionView[]>;
  create(url?: string): Promise<SubscriptionView>;
  setPaused(id: string, paused: boolean): Promise<{ subscription: SubscriptionView; redelivered: number }>;
  remove(id: string): Promise<void>;
  /** Sandbox mode: subscribes the listener itself unless a subscription of ours already does. */
  ensureListenerSubscribed(): Promise<void>;
  /** The public URL in settings has a subscription of ours (the hub, on a real service, at every lead). */
  ensurePublicUrlSubscribed(): Promise<void>;
  /** The URL `create()` uses when given none: the listener (sandbox) or the public URL (a real service). */
  defaultUrl(): string | null;
  /** Every secret a genuine delivery may be signed with (including one being created right now). */
  secrets(): string[];
}

const DELIVERY_PAGE = 100;

export function createSubscriptions(
  context: DeskContext,
  listenerUrl: () => string | null,
  kept: SubscriptionSecrets,
): Subscriptions {
  const state: SubscriptionsState = { context, listenerUrl, kept, creating: new Set() };
  return {
    list: () => list(state),
    create: (url) => create(state, url),
    defaultUrl: () => defaultUrl(state),
    ensurePublicUrlSubscribed: () => ensurePublicUrlSubscribed(state),
    setPaused: (id, paused) => setPaused(state, id, paused),
    remove: (id) => remove(state, id),
    ensureListenerSubscribed: () => ensureListenerSubscribed(state),
    secrets() {
      const held = kept.all();
      return state.creating.size > 0 ? [...held, ...state.creating] : held;
    },
  };
}

interface SubscriptionsState {
  context: DeskContext;
  listenerUrl: () => string | null;
  kept: SubscriptionSecrets;
  // A secret whose subscription is being created: its first delivery may beat the service's answer.
  creating: Set<string>;
}

const client = ({ context }: SubscriptionsState) => context.connection().client();
const publicUrl = ({ context }: SubscriptionsState) => context.settings.get().publicWebhookUrl ?? null;

function view(state: SubscriptionsState, subscription: Subscription): SubscriptionView {
  return {
    id: subscription.id,
    url: subscription.url,
    created: subscription.created,
    paused: subscription.paused,
    ours: state.kept.has(subscription.id),
    target: sameUrl(subscription.url, state.listenerUrl())
      ? 'listener'
      : sameUrl(subscription.url, publicUrl(state))
        ? 'public-url'
        : 'elsewhere',
  };
}

const list = async (state: SubscriptionsState) =>
  (await client(state).subscriptions.list()).map((subscription) => view(state, subscription));

const defaultUrl = (state: SubscriptionsState) =>
  state.context.connection().mode === 'sandbox' ? state.listenerUrl() : publicUrl(state);

/** The URL to subscribe (the default one if none was given), refused in words if it cannot be one more. */
async function urlToSubscribe(state: SubscriptionsState, requested?: string): Promise<string> {
  const url = requested ?? defaultUrl(state);
  if (!url) {
    throw new DeskError(
      'NoPublicUrl',
      'Enter the public https URL of your tunnel in Settings first: the service can only reach Vetted through it.',
      { '/url': 'Required.' },
    );
  }
  const problem = urlProblem(url, state.context.connection().status().baseUrl);
  if (problem) throw new DeskError('InvalidUrl', problem, { '/url': problem });
  const existing = await list(state);
  if (existing.some((subscription) => subscription.ours && sameUrl(subscription.url, url))) {
    throw new DeskError('AlreadySubscribed', 'Vetted already has a subscription delivering to this URL.');
  }
  if (existing.length >= MAX_SUBSCRIPTIONS) throw tooMany();
  return url;
}

async function create(state: SubscriptionsState, requested?: string): Promise<SubscriptionView> {
  const url = await urlToSubscribe(state, requested);
  const secret = randomBytes(32).toString('base64url');
  state.context.log.addSecret(secret);
  state.creating.add(secret);
  try {
    const { id } = await client(state)
      .subscriptions.create(url, secret, { idempotencyKey: randomUUID() })
      .catch((error: unknown) => {
        throw error instanceof ServiceError && error.is('MaxNumberOfResources') ? tooMany() : error;
      });
    if (!isServiceId(id)) {
      throw new DeskError(
        'UnusableId',
        `${unusableIdMessage('subscription', id)} The service made it: delete it there.`,
      );
    }
    await keepSecret(state, id, secret);
    await state.context.journal.audit.record({ action: 'webhook.subscribe', outcome: 'ok', detail: id });
    return view(state, await client(state).subscriptions.get(id));
  } finally {
    state.creating.delete(secret);
  }
}

/** Kept; if that fails, the subscription could never be verified, so it goes again. */
async function keepSecret(state: SubscriptionsState, id: string, secret: string): Promise<void> {
  try {
    await state.kept.keep(id, secret);
  } catch (error) {
    void client(state)
      .subscriptions.delete(id)
      .catch(() => {});
    throw error;
  }
}

/** Deliveries the service recorded while the subscription was paused were never sent: ask for each. */
async function redeliverUnattempted(state: SubscriptionsState, id: string): Promise<number> {
  const unattempted: string[] = [];
  const dates = retainedDates(Date.now());
  for (let offset = 0, total = 1; offset < total; ) {
    // Only what the service still keeps (30 days): never the subscription's whole history.
    const page = await client(state).subscriptions.deliveries(id, { limit: DELIVERY_PAGE, offset, ...dates });
    total = page.total;
    for (const delivery of page.deliveries) if (delivery.attempts.length === 0) unattempted.push(delivery.id);
    if (page.deliveries.length === 0) break;
    offset += page.deliveries.length;
  }
  for (const webhookId of unattempted) {
    await client(state).subscriptions.redeliver(webhookId, { idempotencyKey: randomUUID() });
  }
  return unattempted.length;
}

async function ensureListenerSubscribed(state: SubscriptionsState): Promise<void> {
  const url = state.listenerUrl();
  if (state.context.connection().mode !== 'sandbox' || !url) return;
  const subscriptions = await list(state);
  if (subscriptions.some((subscription) => subscription.ours && subscription.target === 'listener')) return;
  // The built-in sandbox is private to this desk: a loopback subscription to our path there is one of ours
  // from an earlier run (another port, or a secret a memory-only vault forgot). It could never be verified.
  for (const stale of subscriptions.filter((subscription) => isOldListenerUrl(subscription.url))) {
    await client(state).subscriptions.delete(stale.id);
    await state.kept.forget(stale.id);
  }
  await create(state, url);
}

async function ensurePublicUrlSubscribed(state: SubscriptionsState): Promise<void> {
  if (state.context.connection().mode === 'sandbox' || !publicUrl(state)) return;
  const subscriptions = await list(state);
  if (subscriptions.some((subscription) => subscription.ours && subscription.target === 'public-url')) return;
  await create(state);
}

async function setPaused(
  state: SubscriptionsState,
  id: string,
  paused: boolean,
): Promise<{ subscription: SubscriptionView; redelivered: number }> {
  const updated = view(
    state,
    await client(state).subscriptions.setPaused(id, paused, { idempotencyKey: randomUUID() }),
  );
  const redelivered = !paused && updated.ours ? await redeliverUnattempted(state, id) : 0;
  await state.context.journal.audit.record({
    action: paused ? 'webhook.pause' : 'webhook.resume',
    outcome: 'ok',
    detail: paused ? id : `${id} (${redelivered} redelivered)`,
  });
  return { subscription: updated, redelivered };
}

async function remove(state: SubscriptionsState, id: string): Promise<void> {
  // The contract took the id (service-id.ts), and so does the vault's name for its secret: nothing after
  // the service's delete can refuse it, so the delete completes locally too, or the service was never asked.
  try {
    await client(state).subscriptions.delete(id);
  } catch (error) {
    // Already gone on the service: forgetting its secret is all that is left to do.
    if (!isNotFound(error)) throw error;
  }
  await state.kept.forget(id);
  await state.context.journal.audit.record({ action: 'webhook.delete', outcome: 'ok', detail: id });
}

function tooMany(): DeskError {
  return new DeskError(
    'TooManySubscriptions',
    `The service allows at most ${MAX_SUBSCRIPTIONS} webhook subscriptions per application, and this one ` +
      'has them all. Delete one that is no longer used (other programs of this account may use some), then try again.',
  );
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why a subscription URL cannot work, or null. https, as the service requires; plain http only to a
 * loopback host, and only when the service is on this machine too (the sandbox): a real service
 * could never reach it.
 */
export function urlProblem(value: string, serviceBaseUrl: string | null): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full URL, such as https://vetted.example.com/webhooks.';
  }
  if (url.username || url.password) return 'The URL must not contain a user name or password.';
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return 'The URL must start with https://.';
  if (!LOOPBACK.test(url.hostname)) {
    return 'The service delivers only over https (TLS): use the https URL of your tunnel.';
  }
  if (!serviceIsLocal(serviceBaseUrl)) {
    return 'Only the built-in sandbox can reach this machine directly; the service needs the public https URL of a tunnel.';
  }
  return null;
}

function serviceIsLocal(baseUrl: string | null): boolean {
  if (!baseUrl) return false;
  try {
    return LOOPBACK.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

function isOldListenerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && LOOPBACK.test(url.hostname) && url.pathname === WEBHOOK_PATH;
  } catch {
    return false;
  }
}

export function sameUrl(a: string, b: string | null): boolean {
  if (b === null) return false;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}
