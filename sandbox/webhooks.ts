import { randomUUID } from 'node:crypto';
import { isoTime } from './clock.ts';
import { invalidResourceState, notFound } from './errors.ts';
import type { EventRow } from './event-row.ts';
import { pageLinks, pageOf } from './pagination.ts';
import { createdReply, halReply, type Reply, resourceLink } from './reply.ts';
import { findSubscription, type SubscriptionRow } from './subscriptions.ts';
import type { App, RequestContext, Route } from './types.ts';
import { urlOf } from './urls.ts';

/**
 * A webhook is one event's delivery to one subscription, with its attempts (service-facts.md §7).
 * `next_attempt_ms` is when the automatic schedule sends it next; `manual_due` marks a redelivery
 * the client asked for. Paused subscriptions get webhooks with neither, so nothing is sent.
 */
export interface WebhookRow extends Record<string, unknown> {
  id: string;
  subscription_id: string;
  event_id: string;
  topic: string;
  created_ms: number;
  delivered: number;
  first_attempt_ms: number | null;
  auto_attempts: number;
  next_attempt_ms: number | null;
  manual_due: number;
}

export interface AttemptRow extends Record<string, unknown> {
  id: string;
  webhook_id: string;
  request_ms: number;
  request_url: string;
  request_headers: string;
  request_body: string;
  response_ms: number;
  response_headers: string;
  status_code: number;
  response_body: string;
  succeeded: number;
}

interface RetryRow extends Record<string, unknown> {
  id: string;
  webhook_id: string;
  created_ms: number;
  attempt_id: string | null;
}

/** One webhook per subscription for a new event; call inside the event's transaction. */
export function queueWebhooks(app: App, event: EventRow): void {
  const subscriptions = app.store.all<SubscriptionRow>('SELECT id, paused FROM subscriptions');
  for (const subscription of subscriptions) {
    app.store.run(
      'INSERT INTO webhooks (id, subscription_id, event_id, topic, created_ms, next_attempt_ms) VALUES (?, ?, ?, ?, ?, ?)',
      randomUUID(),
      subscription.id,
      event.id,
      event.topic,
      event.created_ms,
      subscription.paused === 1 ? null : event.created_ms,
    );
  }
  if (subscriptions.length > 0) app.scheduler.kick();
}

export function findWebhook(app: App, id: string): WebhookRow | undefined {
  return app.store.get<WebhookRow>('SELECT * FROM webhooks WHERE id = ?', id);
}

/** A webhook the profile still keeps (the real service keeps 30 days of history). */
function requireWebhook(app: App, id: string): WebhookRow {
  const webhook = findWebhook(app, id);
  const kept = app.profile.webhookWindow(app.clock.now(), new URLSearchParams());
  if (!webhook || webhook.created_ms < kept.from) throw notFound('Webhook not found.');
  return webhook;
}

/** Without a `response` when the receiver never answered; `error` then says what happened. */
function attemptResource(attempt: AttemptRow): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    id: attempt.id,
    request: {
      timestamp: isoTime(attempt.request_ms),
      url: attempt.request_url,
      headers: JSON.parse(attempt.request_headers),
      body: attempt.request_body,
    },
  };
  if (attempt.status_code === 0) {
    resource.error = attempt.response_body;
    return resource;
  }
  resource.response = {
    timestamp: isoTime(attempt.response_ms),
    headers: JSON.parse(attempt.response_headers),
    statusCode: attempt.status_code,
    body: attempt.response_body,
  };
  return resource;
}

/** Attempts oldest first, so the retry schedule reads top to bottom. */
function webhookResource(app: App, webhook: WebhookRow): Record<string, unknown> {
  const self = urlOf(app, `/webhooks/${webhook.id}`);
  const attempts = app.store.all<AttemptRow>(
    'SELECT * FROM attempts WHERE webhook_id = ? ORDER BY seq',
    webhook.id,
  );
  return {
    _links: {
      self: resourceLink(self, 'webhook'),
      subscription: resourceLink(
        urlOf(app, `/webhook-subscriptions/${webhook.subscription_id}`),
        'webhook-subscription',
      ),
      event: resourceLink(urlOf(app, `/events/${webhook.event_id}`), 'event'),
      [app.profile.webhookRetriesLink]: resourceLink(`${self}/retries`, 'retry'),
    },
    ...(app.profile.webhookAccountId ? { accountId: app.accountId } : {}),
    id: webhook.id,
    topic: webhook.topic,
    eventId: webhook.event_id,
    subscriptionId: webhook.subscription_id,
    created: isoTime(webhook.created_ms),
    attempts: attempts.map(attemptResource),
  };
}

function listSubscriptionWebhooks(ctx: RequestContext): Reply {
  const { app, query } = ctx;
  const subscription = findSubscription(app.store, ctx.params.id!);
  if (!subscription) throw notFound('Webhook subscription not found.');
  const page = pageOf(query);
  const { from, to } = app.profile.webhookWindow(app.clock.now(), query);
  const where = 'subscription_id = ? AND created_ms >= ? AND created_ms < ?';
  const total =
    app.store.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM webhooks WHERE ${where}`,
      subscription.id,
      from,
      to,
    )?.n ?? 0;
  const webhooks = app.store.all<WebhookRow>(
    `SELECT * FROM webhooks WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
    subscription.id,
    from,
    to,
    page.limit,
    page.offset,
  );
  return halReply(200, {
    _links: pageLinks(
      app,
      `/webhook-subscriptions/${subscription.id}/webhooks`,
      query,
      page,
      total,
      'webhook',
    ),
    _embedded: { webhooks: webhooks.map((webhook) => webhookResource(app, webhook)) },
    total,
  });
}

function getWebhook(ctx: RequestContext): Reply {
  return halReply(200, webhookResource(ctx.app, requireWebhook(ctx.app, ctx.params.id!)));
}

function retryResource(app: App, retry: RetryRow): Record<string, unknown> {
  const webhook = urlOf(app, `/webhooks/${retry.webhook_id}`);
  return {
    _links: {
      self: resourceLink(`${webhook}/retries/${retry.id}`, 'retry'),
      webhook: resourceLink(webhook, 'webhook'),
    },
    id: retry.id,
    timestamp: isoTime(retry.created_ms),
  };
}

/** Sends the webhook once more, now; never to a paused subscription ("nothing sent while paused"). */
function redeliver(ctx: RequestContext): Reply {
  const { app } = ctx;
  const webhook = requireWebhook(app, ctx.params.id!);
  if (findSubscription(app.store, webhook.subscription_id)?.paused === 1) throw invalidResourceState();
  const id = randomUUID();
  app.store.transaction(() => {
    app.store.run(
      'INSERT INTO retries (id, webhook_id, created_ms) VALUES (?, ?, ?)',
      id,
      webhook.id,
      app.clock.now(),
    );
    app.store.run('UPDATE webhooks SET manual_due = 1 WHERE id = ?', webhook.id);
  });
  app.scheduler.kick();
  return createdReply(urlOf(app, `/webhooks/${webhook.id}/retries/${id}`));
}

function listRetries(ctx: RequestContext): Reply {
  const { app } = ctx;
  const webhook = requireWebhook(app, ctx.params.id!);
  const retries = app.store.all<RetryRow>(
    'SELECT * FROM retries WHERE webhook_id = ? ORDER BY seq DESC',
    webhook.id,
  );
  return halReply(200, {
    _links: { self: resourceLink(urlOf(app, `/webhooks/${webhook.id}/retries`), 'retry') },
    _embedded: { retries: retries.map((retry) => retryResource(app, retry)) },
    total: retries.length,
  });
}

function getRetry(ctx: RequestContext): Reply {
  const retry = ctx.app.store.get<RetryRow>(
    'SELECT * FROM retries WHERE id = ? AND webhook_id = ?',
    ctx.params.retryId!,
    ctx.params.id!,
  );
  if (!retry) throw notFound('Retry not found.');
  return halReply(200, retryResource(ctx.app, retry));
}

export function webhookRoutes(): Route[] {
  return [
    { method: 'GET', pattern: '/webhook-subscriptions/{id}/webhooks', handle: listSubscriptionWebhooks },
    { method: 'GET', pattern: '/webhooks/{id}', handle: getWebhook },
    { method: 'POST', pattern: '/webhooks/{id}/retries', handle: redeliver },
    { method: 'GET', pattern: '/webhooks/{id}/retries', handle: listRetries },
    { method: 'GET', pattern: '/webhooks/{id}/retries/{retryId}', handle: getRetry },
  ];
}
