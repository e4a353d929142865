import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

/** One webhook POST as the service sends it: signed body, no redirects followed, a hard timeout. */
export const WEBHOOK_USER_AGENT = 'service-webhooks/1.1';
const RESPONSE_BODY_LIMIT = 64 * 1024;

export interface WebhookHeader {
  name: string;
  value: string;
}

export interface WebhookOutcome {
  /** 0 when no HTTP response arrived (refused, reset, timed out). */
  statusCode: number;
  headers: WebhookHeader[];
  /** The response body (first 64 KiB), or what went wrong when there was no response. */
  body: string;
  succeeded: boolean;
}

/** Lower-case hex HMAC-SHA256 of the raw body, keyed with the subscription secret. */
export function signBody(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export function webhookHeaders(body: string, secret: string, topic: string): WebhookHeader[] {
  return [
    { name: 'Content-Type', value: 'application/json' },
    { name: 'X-Request-Signature-SHA-256', value: signBody(body, secret) },
    { name: 'X-Service-Topic', value: topic },
    { name: 'User-Agent', value: WEBHOOK_USER_AGENT },
  ];
}

class Aborted extends Error {}

/**
 * Resolves with the outcome, never rejects, except with `Aborted` when `signal` fires (the sandbox
 * is closing: the attempt is forgotten and happens again after a restart).
 */
export function postWebhook(
  url: string,
  headers: WebhookHeader[],
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<WebhookOutcome> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body);
    let settled = false;
    const finish = (outcome: WebhookOutcome | Aborted): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      if (outcome instanceof Aborted) reject(outcome);
      else resolve(outcome);
    };
    const failed = (reason: string): void =>
      finish({ statusCode: 0, headers: [], body: reason, succeeded: false });
    const onAbort = (): void => finish(new Aborted('sandbox closing'));
    const request = client.request(target, {
      method: 'POST',
      agent: false,
      headers: {
        ...Object.fromEntries(headers.map((h) => [h.name, h.value])),
        'Content-Length': payload.length,
      },
    });
    const timer = setTimeout(() => failed(`No response within ${timeoutMs / 1000} s.`), timeoutMs);
    timer.unref();
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    request.on('error', (error) => failed(`Request failed: ${error.message}`));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = (): void => {
        const statusCode = response.statusCode ?? 0;
        finish({
          statusCode,
          headers: responseHeaders(response.rawHeaders),
          body: Buffer.concat(chunks).toString('utf8'),
          succeeded: statusCode >= 200 && statusCode < 300,
        });
      };
      response.on('data', (chunk: Buffer) => {
        const room = RESPONSE_BODY_LIMIT - length;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        length += chunk.length;
        if (length >= RESPONSE_BODY_LIMIT) done();
      });
      response.on('end', done);
      response.on('error', () => failed('The response was cut off.'));
    });
    request.end(payload);
  });
}

export function isAborted(error: unknown): boolean {
  return error instanceof Aborted;
}

function responseHeaders(raw: string[]): WebhookHeader[] {
  const headers: WebhookHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push({ name: raw[i]!, value: raw[i + 1]! });
  return headers;
}
