import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { EventName, EventPayload } from '#contract/channels.ts';
import { type Journal, openJournal } from '#main/data/journal/index.ts';
import {
  type ListenerLimits,
  type RunningListener,
  startListener,
} from '#main/features/webhooks/listener.ts';
import { createReceiver } from '#main/features/webhooks/receiver.ts';
import { signBody } from '#main/features/webhooks/signature.ts';
import type { ProbeRegistry } from '#main/features/webhooks/tunnel-check.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import type { Reconciler } from '#main/sync/reconcile/reconciler.ts';
import type { DeskHarness } from '#test/support/desk/desk-harness.ts';

export const BASE = 'https://api.service.test';
export const SECRET = 'listener-test-secret-0123456789abcdef';

/** An event body as the service sends it. */
export function eventBody(overrides: { id?: string; topic?: string; customerId?: string } = {}): string {
  const id = overrides.id ?? randomUUID();
  const customerId = overrides.customerId ?? randomUUID();
  const created = new Date().toISOString();
  return JSON.stringify({
    _links: {
      self: { href: `${BASE}/events/${id}` },
      resource: { href: `${BASE}/customers/${customerId}` },
      customer: { href: `${BASE}/customers/${customerId}` },
    },
    id,
    created,
    timestamp: created,
    topic: overrides.topic ?? 'customer_verified',
    resourceId: customerId,
  });
}

/** A delivery sent all but its last byte: held open until `finish()`. */
export function heldDelivery(port: number, body: string): { finish(): Promise<Reply> } {
  const bytes = Buffer.from(body);
  let req!: ReturnType<typeof request>;
  const reply = new Promise<Reply>((resolve, reject) => {
    req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/webhooks',
      agent: false,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': bytes.length,
        'X-Request-Signature-SHA-256': signBody(body, SECRET),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.write(bytes.subarray(0, bytes.length - 1));
  });
  return {
    finish() {
      req.end(bytes.subarray(bytes.length - 1));
      return reply;
    },
  };
}

export interface Reply {
  status: number;
  body: string;
}

export interface PostOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string | number>;
  /** Sent as is; `partial` sends only this much of it and waits (a slow sender). */
  body?: string | Buffer;
  partial?: number;
}

/** One request on its own connection, header names exactly as given; resolves with the answer. */
export function send(port: number, options: PostOptions = {}): Promise<Reply> {
  const body = Buffer.from(options.body ?? '');
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: options.method ?? 'POST',
      path: options.path ?? '/webhooks',
      agent: false,
      headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, ...options.headers },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    // A refused upload may be cut while still being written; the answer has already come by then.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (options.partial === undefined) req.end(body);
    else req.write(body.subarray(0, options.partial));
  });
}

/** A delivery signed with `secret`, header name as given. */
export function deliver(port: number, body: string, secret = SECRET, header = 'X-Request-Signature-SHA-256') {
  return send(port, { body, headers: { [header]: signBody(body, secret) } });
}

/**
 * The listener with the real ingest, durable writer, journal and security log, and a reconciler
 * that only notes which customers it was asked for.
 */
export interface ListenerRig {
  port: number;
  journal: Journal;
  refreshed: string[];
  probes: ProbeRegistry;
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A reconciler whose refresh is `refresh`; its `refreshed` reads the customer before it from `journal` (when
 * given), as the real one does.
 */
export function reconcilerFrom(journal: Journal | undefined, refresh: Reconciler['refresh']): Reconciler {
  return {
    refresh,
    async refreshed(id, observation) {
      const before = await journal?.customers.get(id);
      return { before, after: await refresh(id, observation) };
    },
    refreshAll: async () => ({ done: 0, failed: 0 }),
  };
}

/** A reconciler that only notes which customers it was asked for. */
export function recordingReconciler(): { reconciler: Reconciler; refreshed: string[] } {
  const refreshed: string[] = [];
  const reconciler = reconcilerFrom(undefined, async (id) => {
    refreshed.push(id);
    return undefined;
  });
  return { reconciler, refreshed };
}

export async function startListenerRig(limits: Partial<ListenerLimits> = {}): Promise<ListenerRig> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-listener-'));
  const journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
  const { reconciler, refreshed } = recordingReconciler();
  const receiver = createReceiver({
    journal,
    reconciler,
    events: createEventHub({ validate: true }),
    log: createLogger(() => {}),
    notify: () => {},
    secrets: () => [SECRET],
  });
  const listener: RunningListener = await startListener(0, receiver.handlers, {
    maxBodyBytes: 1024 * 1024,
    // As generous as production's: on a loaded machine a 1 MiB body may take a while to arrive.
    headersTimeoutMs: 5_000,
    bodyTimeoutMs: 10_000,
    maxConnections: 64,
    ...limits,
  });
  const { processor, writer, probes } = receiver;
  return {
    port: listener.port,
    journal,
    refreshed,
    probes,
    // Events, marks and refusals are written behind the answers: this makes them visible.
    idle: () => receiver.idle(),
    async close() {
      await listener.close();
      await processor.close();
      await writer.close();
      await journal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { freePort } from '#test/support/free-port.ts';

/** A data directory whose settings put the listener on `port`. */
export function dataDirWithPort(port: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-webhooks-'));
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ webhookPort: port }), { mode: 0o600 });
  return dir;
}

/** The first pushed event (already seen, or still to come) that matches. */
export function nextEvent<E extends EventName>(
  h: DeskHarness,
  name: E,
  matches: (payload: EventPayload<E>) => boolean = () => true,
  after = 0,
): Promise<EventPayload<E>> {
  const seen = h.events.slice(after).find((e) => e.event === name && matches(e.payload as EventPayload<E>));
  if (seen) return Promise.resolve(seen.payload as EventPayload<E>);
  return new Promise((resolve) => {
    const stop = h.desk.events.subscribe((event, payload) => {
      if (event !== name || !matches(payload as EventPayload<E>)) return;
      stop();
      resolve(payload as EventPayload<E>);
    });
  });
}
