import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isoTime } from './clock.ts';
import { maxNumberOfResources, notFound } from './errors.ts';
import { createdReply, halReply, type Reply, resourceLink } from './reply.ts';
import type { Store } from './store.ts';
import type { App, RequestContext, Route } from './types.ts';
import { urlOf } from './urls.ts';
import { parseBody } from './validation.ts';

/** Webhook subscriptions (service-facts.md §7): where events are delivered, and whether delivery is paused. */
export interface SubscriptionRow extends Record<string, unknown> {
  id: string;
  url: string;
  secret: string;
  paused: number;
  created_ms: number;
  consecutive_failures: number;
  last_success_ms: number | null;
}

export const MAX_SUBSCRIPTIONS = 10;
export const MAX_SECRET_LENGTH = 128;

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** https, or http to this machine (the sandbox's own allowance, for local receivers). */
function urlProblem(value: string): { code: 'InvalidFormat' | 'Invalid'; message: string } | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { code: 'InvalidFormat', message: 'Url invalid.' };
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return { code: 'Invalid', message: 'Url must use https (http is allowed only to a loopback host).' };
}

const createSchema = z.object({
  url: z.string().superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, params: { code: problem.code } });
  }),
  secret: z.string().superRefine((value, ctx) => {
    if (value.trim() === '')
      ctx.addIssue({ code: 'custom', message: 'Secret required.', params: { code: 'Required' } });
    if (value.length > MAX_SECRET_LENGTH) {
      ctx.addIssue({
        code: 'custom',
        message: `Secret must be at most ${MAX_SECRET_LENGTH} characters.`,
        params: { code: 'InvalidFormat' },
      });
    }
  }),
});

/** Only `paused` changes; the url and secret of a subscription are fixed at creation. */
const readOnly = (label: string) =>
  z
    .unknown()
    .optional()
    .refine((value) => value === undefined, {
      message: `${label} is read-only.`,
      params: { code: 'ReadOnly' },
    });

const pauseSchema = z.object({ paused: z.boolean(), url: readOnly('Url'), secret: readOnly('Secret') });

export function findSubscription(store: Store, id: string): SubscriptionRow | undefined {
  return store.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?', id);
}

function requireSubscription(store: Store, id: string): SubscriptionRow {
  const subscription = findSubscription(store, id);
  if (!subscription) throw notFound('Webhook subscription not found.');
  return subscription;
}

/** Never the secret. */
export function subscriptionResource(app: App, row: SubscriptionRow): Record<string, unknown> {
  const self = urlOf(app, `/webhook-subscriptions/${row.id}`);
  return {
    _links: {
      self: resourceLink(self, 'webhook-subscription'),
      webhooks: resourceLink(`${self}/webhooks`, 'webhook'),
    },
    id: row.id,
    url: row.url,
    paused: row.paused === 1,
    created: isoTime(row.created_ms),
  };
}

/**
 * Stops sending: retries already scheduled are dropped and nothing is re-sent on resume; the
 * client finds the webhooks left without a successful attempt and redelivers them.
 */
export function pauseSubscription(store: Store, id: string): void {
  store.transaction(() => {
    store.run('UPDATE subscriptions SET paused = 1 WHERE id = ?', id);
    store.run(
      'UPDATE webhooks SET next_attempt_ms = NULL, manual_due = 0 WHERE subscription_id = ? AND (next_attempt_ms IS NOT NULL OR manual_due = 1)',
      id,
    );
  });
}

/** A resumed subscription starts counting failures afresh, so it is not paused again at once. */
function resumeSubscription(store: Store, id: string): void {
  store.run('UPDATE subscriptions SET paused = 0, consecutive_failures = 0 WHERE id = ?', id);
}

function createSubscription(ctx: RequestContext): Reply {
  const { app } = ctx;
  const input = parseBody(createSchema, ctx.json);
  const count = app.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM subscriptions')?.n ?? 0;
  if (count >= MAX_SUBSCRIPTIONS) {
    throw maxNumberOfResources(`An application may have at most ${MAX_SUBSCRIPTIONS} webhook subscriptions.`);
  }
  const id = randomUUID();
  app.store.run(
    'INSERT INTO subscriptions (id, url, secret, created_ms) VALUES (?, ?, ?, ?)',
    id,
    input.url,
    app.secrets.seal(input.secret),
    app.clock.now(),
  );
  return createdReply(urlOf(app, `/webhook-subscriptions/${id}`));
}

function getSubscription(ctx: RequestContext): Reply {
  return halReply(200, subscriptionResource(ctx.app, requireSubscription(ctx.app.store, ctx.params.id!)));
}

function listSubscriptions(ctx: RequestContext): Reply {
  const { app } = ctx;
  const rows = app.store.all<SubscriptionRow>('SELECT * FROM subscriptions ORDER BY seq DESC');
  return halReply(200, {
    _links: { self: resourceLink(urlOf(app, '/webhook-subscriptions'), 'webhook-subscription') },
    _embedded: { 'webhook-subscriptions': rows.map((row) => subscriptionResource(app, row)) },
    total: rows.length,
  });
}

function updateSubscription(ctx: RequestContext): Reply {
  const { app } = ctx;
  const { id } = requireSubscription(app.store, ctx.params.id!);
  const { paused } = parseBody(pauseSchema, ctx.json);
  if (paused) pauseSubscription(app.store, id);
  else resumeSubscription(app.store, id);
  app.scheduler.kick();
  return halReply(200, subscriptionResource(app, requireSubscription(app.store, id)));
}

/** Its webhooks, attempts and retries go with it (ON DELETE CASCADE). */
function deleteSubscription(ctx: RequestContext): Reply {
  const { app } = ctx;
  const subscription = requireSubscription(app.store, ctx.params.id!);
  app.store.run('DELETE FROM subscriptions WHERE id = ?', subscription.id);
  return halReply(200, subscriptionResource(app, subscription));
}

export function subscriptionRoutes(): Route[] {
  return [
    { method: 'POST', pattern: '/webhook-subscriptions', body: 'json', handle: createSubscription },
    { method: 'GET', pattern: '/webhook-subscriptions', handle: listSubscriptions },
    { method: 'GET', pattern: '/webhook-subscriptions/{id}', handle: getSubscription },
    { method: 'POST', pattern: '/webhook-subscriptions/{id}', body: 'json', handle: updateSubscription },
    { method: 'DELETE', pattern: '/webhook-subscriptions/{id}', handle: deleteSubscription },
  ];
}
