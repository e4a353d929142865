import { randomUUID } from 'node:crypto';
import type { DueWork } from './clock.ts';
import { eventResource, findEvent } from './events.ts';
import { findSubscription, pauseSubscription } from './subscriptions.ts';
import type { App } from './types.ts';
import {
  isAborted,
  postWebhook,
  type WebhookHeader,
  type WebhookOutcome,
  webhookHeaders,
} from './webhook-post.ts';
import { findWebhook, type WebhookRow } from './webhooks.ts';

/**
 * Sends due webhooks (service-facts.md §7): retries 15 min … 72 h after the first attempt, at most
 * 10 in flight per receiver, and auto-pause after 400 consecutive failures with no success for 24 h.
 */
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
export const RETRY_OFFSETS_MS = [
  15 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  48 * HOUR,
  72 * HOUR,
];
export const MAX_IN_FLIGHT_PER_RECEIVER = 10;
export const AUTO_PAUSE_FAILURES = 400;
export const AUTO_PAUSE_WITHOUT_SUCCESS_MS = 24 * HOUR;

interface DueWebhook extends WebhookRow {
  seq: number;
  url: string;
  secret: string;
}

interface AttemptRecord {
  requestMs: number;
  url: string;
  headers: WebhookHeader[];
  body: string;
  outcome: WebhookOutcome;
}

/** Must match the `webhooks_pending` index's condition (store.ts), so both queries below walk that index. */
const PENDING = `(w.manual_due = 1 OR (w.delivered = 0 AND w.next_attempt_ms IS NOT NULL))`;

export class DeliveryRunner implements DueWork {
  readonly #app: App;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #perReceiver = new Map<string, number>();
  readonly #closing = new AbortController();
  readonly #broken = new Set<string>();
  #wake: (() => void) | null = null;

  constructor(app: App) {
    this.#app = app;
  }

  nextDueAt(): number | null {
    const row = this.#app.store.get<{ due: number | null }>(
      `SELECT MIN(CASE WHEN w.manual_due = 1 THEN 0 ELSE w.next_attempt_ms END) AS due
       FROM webhooks w JOIN subscriptions s ON s.id = w.subscription_id
       WHERE s.paused = 0 AND ${PENDING}`,
    );
    return row?.due ?? null;
  }

  /** Keeps starting due webhooks as slots free up, until none is due and none is in flight. */
  async runDue(): Promise<void> {
    while (!this.#closing.signal.aborted) {
      this.#startDue();
      if (this.#inFlight.size === 0) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        void Promise.race(this.#inFlight.values()).then(resolve);
      });
      this.#wake = null;
    }
  }

  wake(): void {
    this.#wake?.();
  }

  /** Abandons attempts in flight; they stay due and are sent after a restart. */
  async close(): Promise<void> {
    this.#closing.abort();
    await Promise.allSettled(this.#inFlight.values());
  }

  #startDue(): void {
    const now = this.#app.clock.now();
    // Called each time an attempt ends: reading every due webhook each time made a backlog of n cost n² rows.
    // The first (slots + those to skip) in order are enough to fill a receiver's free slots.
    const enough = MAX_IN_FLIGHT_PER_RECEIVER + this.#inFlight.size + this.#broken.size;
    const due = this.#app.store
      .all<{ id: string }>('SELECT id FROM subscriptions WHERE paused = 0')
      .flatMap(({ id }) =>
        this.#app.store.all<DueWebhook>(
          `SELECT w.*, s.url, s.secret FROM webhooks w JOIN subscriptions s ON s.id = w.subscription_id
           WHERE w.subscription_id = ? AND ${PENDING} AND (w.manual_due = 1 OR w.next_attempt_ms <= ?)
           ORDER BY w.seq LIMIT ?`,
          id,
          now,
          enough,
        ),
      )
      .sort((a, b) => a.seq - b.seq);
    for (const webhook of due) {
      if (this.#inFlight.has(webhook.id) || this.#broken.has(webhook.id)) continue;
      const receiver = new URL(webhook.url).origin;
      const busy = this.#perReceiver.get(receiver) ?? 0;
      if (busy >= MAX_IN_FLIGHT_PER_RECEIVER) continue;
      this.#perReceiver.set(receiver, busy + 1);
      const task = this.#attempt(webhook, now)
        .catch((error: unknown) => {
          // Left due, it would be picked again at once: set it aside until the next start.
          this.#broken.add(webhook.id);
          this.#app.log(`webhook ${webhook.id}: delivery failed internally: ${String(error)}`);
        })
        .finally(() => {
          this.#inFlight.delete(webhook.id);
          this.#perReceiver.set(receiver, (this.#perReceiver.get(receiver) ?? 1) - 1);
        });
      this.#inFlight.set(webhook.id, task);
    }
  }

  async #attempt(webhook: DueWebhook, now: number): Promise<void> {
    const app = this.#app;
    const automatic =
      webhook.delivered === 0 && webhook.next_attempt_ms !== null && webhook.next_attempt_ms <= now;
    const requestMs = app.clock.now();
    let body = '';
    let headers: WebhookHeader[] = [];
    let outcome: WebhookOutcome;
    try {
      const event = findEvent(app, webhook.event_id);
      if (!event) throw new Error('its event no longer exists');
      body = JSON.stringify(eventResource(app, event));
      headers = webhookHeaders(body, app.secrets.open(webhook.secret), webhook.topic);
      outcome = await postWebhook(webhook.url, headers, body, app.deliveryTimeoutMs, this.#closing.signal);
    } catch (error) {
      if (isAborted(error)) return;
      const reason = error instanceof Error ? error.message : String(error);
      outcome = { statusCode: 0, headers: [], body: `Not sent: ${reason}`, succeeded: false };
    }
    recordAttempt(app, webhook.id, automatic, { requestMs, url: webhook.url, headers, body, outcome });
  }
}

/** Stores the attempt and moves the webhook's schedule and the subscription's health on. */
function recordAttempt(app: App, webhookId: string, automatic: boolean, attempt: AttemptRecord): void {
  const { store } = app;
  store.transaction(() => {
    const webhook = findWebhook(app, webhookId);
    const subscription = webhook && findSubscription(store, webhook.subscription_id);
    if (!webhook || !subscription) return; // deleted while the request was out
    const responseMs = app.clock.now();
    const attemptId = randomUUID();
    const { outcome } = attempt;
    store.run(
      `INSERT INTO attempts (id, webhook_id, request_ms, request_url, request_headers, request_body,
         response_ms, response_headers, status_code, response_body, succeeded)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      attemptId,
      webhook.id,
      attempt.requestMs,
      attempt.url,
      JSON.stringify(attempt.headers),
      attempt.body,
      responseMs,
      JSON.stringify(outcome.headers),
      outcome.statusCode,
      outcome.body,
      outcome.succeeded ? 1 : 0,
    );
    store.run(
      'UPDATE retries SET attempt_id = ? WHERE webhook_id = ? AND attempt_id IS NULL',
      attemptId,
      webhook.id,
    );
    updateSchedule(
      app,
      webhook,
      automatic && subscription.paused === 0,
      attempt.requestMs,
      outcome.succeeded,
    );
    if (outcome.succeeded) {
      store.run(
        'UPDATE subscriptions SET consecutive_failures = 0, last_success_ms = ? WHERE id = ?',
        responseMs,
        subscription.id,
      );
      return;
    }
    const failures = subscription.consecutive_failures + 1;
    store.run('UPDATE subscriptions SET consecutive_failures = ? WHERE id = ?', failures, subscription.id);
    const quietSince = subscription.last_success_ms ?? subscription.created_ms;
    if (failures >= AUTO_PAUSE_FAILURES && responseMs - quietSince >= AUTO_PAUSE_WITHOUT_SUCCESS_MS) {
      pauseSubscription(store, subscription.id);
    }
  });
}

/** The retry schedule counts from the first automatic attempt; a redelivery does not move it. */
function updateSchedule(
  app: App,
  webhook: WebhookRow,
  automatic: boolean,
  requestMs: number,
  succeeded: boolean,
): void {
  if (succeeded) {
    app.store.run(
      'UPDATE webhooks SET delivered = 1, next_attempt_ms = NULL, manual_due = 0 WHERE id = ?',
      webhook.id,
    );
    return;
  }
  if (!automatic) {
    app.store.run('UPDATE webhooks SET manual_due = 0 WHERE id = ?', webhook.id);
    return;
  }
  const firstAttemptMs = webhook.first_attempt_ms ?? requestMs;
  const attempts = webhook.auto_attempts + 1;
  const offset = RETRY_OFFSETS_MS[attempts - 1];
  app.store.run(
    'UPDATE webhooks SET first_attempt_ms = ?, auto_attempts = ?, next_attempt_ms = ?, manual_due = 0 WHERE id = ?',
    firstAttemptMs,
    attempts,
    offset === undefined ? null : firstAttemptMs + offset,
    webhook.id,
  );
}
