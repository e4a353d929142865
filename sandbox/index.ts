import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock, Scheduler } from './clock.ts';
import { Router } from './router.ts';
import type { App, Profile } from './types.ts';
import { urlOf } from './urls.ts';

export type { ProfileName as SandboxProfile } from './profiles/index.ts';
export type { SandboxSecrets } from './secrets.ts';

import { advanceClock, controlRoutes } from './controls.ts';
import { customerRoutes } from './customers.ts';
import { DeliveryRunner } from './delivery.ts';
import { documentReviews, documentRoutes } from './documents.ts';
import { eventRoutes } from './events.ts';
import { Faults } from './faults.ts';
import { answerClientErrors, createRequestListener } from './http.ts';
import { forgetUnfinishedKeys } from './idempotency.ts';
import { linkedResourceRoutes } from './linked-resources.ts';
import { loadCredentials, oauthRoutes } from './oauth.ts';
import { PROFILE_NAMES, type ProfileName, profileNamed } from './profiles/index.ts';
import { type SandboxSecrets, UNSEALED } from './secrets.ts';
import { Stats } from './stats.ts';
import { openStore, type Store, stableValue } from './store.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { webhookRoutes } from './webhooks.ts';

/**
 * The built-in sandbox: a stateful local implementation of the service's HTTP API
 * (service-interface.md with every behaviour of service-facts.md), plus `/sandbox/*` controls.
 */
export interface SandboxOptions {
  /** Default 0 (a free port); always binds 127.0.0.1. */
  port?: number;
  /** A file path, or ':memory:' (default). */
  data?: string;
  /** Document review delay on the sandbox clock; default 60 000. */
  reviewDelayMs?: number;
  /** Default 3600. */
  tokenTtlSeconds?: number;
  /** One line per request; default: no logging. */
  log?: (line: string) => void;
  /** How long a webhook receiver has to answer, in real time; default 10 000 (the service's 10 s). */
  deliveryTimeoutMs?: number;
  /** Seals the client secret and webhook secrets in the data file; default: stored as they are. */
  secrets?: SandboxSecrets;
  /** `interface` (default): the interface document; `real`: today's real service (real-service.md). */
  profile?: ProfileName;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:54321 (no trailing slash). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  profile: ProfileName;
  /** Where tokens are issued: `${baseUrl}/oauth/v2/token` or, in the real profile, `${baseUrl}/token`. */
  tokenUrl: string;
  /** Same as POST /sandbox/clock; resolves after the work that fell due (reviews, webhook attempts) has run. */
  advanceClock(seconds: number): Promise<void>;
  /** Stops the server, timers and in-flight deliveries; closes the database. */
  close(): Promise<void>;
}

const routes = (profile: Profile) => [
  ...oauthRoutes(profile.tokenPath),
  ...customerRoutes(),
  ...documentRoutes(),
  ...eventRoutes(),
  ...subscriptionRoutes(),
  ...webhookRoutes(),
  ...linkedResourceRoutes(),
  ...controlRoutes(),
  ...profile.routes(),
];

function checkOptions(options: SandboxOptions): void {
  const { port = 0, reviewDelayMs = 0, tokenTtlSeconds = 1, deliveryTimeoutMs = 1 } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError(`Invalid port: ${port}`);
  if (!(reviewDelayMs >= 0)) throw new RangeError('reviewDelayMs must be 0 or more.');
  if (!(tokenTtlSeconds > 0)) throw new RangeError('tokenTtlSeconds must be more than 0.');
  if (!(deliveryTimeoutMs > 0)) throw new RangeError('deliveryTimeoutMs must be more than 0.');
  if (options.profile !== undefined && !PROFILE_NAMES.includes(options.profile))
    throw new RangeError(`Unknown profile: ${options.profile} (expected ${PROFILE_NAMES.join(' or ')}).`);
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function createApp(store: Store, options: SandboxOptions, closing: AbortSignal): App {
  const secrets = options.secrets ?? UNSEALED;
  const { clientId, clientSecret } = loadCredentials(store, secrets);
  const clock = new Clock(Number(store.getMeta('clock_offset_ms') ?? 0), (offset) =>
    store.setMeta('clock_offset_ms', String(offset)),
  );
  const log = options.log ?? (() => {});
  return {
    store,
    clock,
    scheduler: new Scheduler(clock, (error) =>
      log(`scheduler: ${error instanceof Error ? error.message : String(error)}`),
    ),
    baseUrl: '',
    accountId: stableValue(store, 'account_id', randomUUID),
    clientId,
    clientSecret,
    secrets,
    reviewDelayMs: options.reviewDelayMs ?? 60_000,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
    faults: new Faults(),
    profile: profileNamed(options.profile ?? 'interface'),
    stats: new Stats(),
    log,
    requestLog: options.log ?? null,
    closing,
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  checkOptions(options);
  const store = openStore(options.data ?? ':memory:');
  const closing = new AbortController();
  try {
    forgetUnfinishedKeys(store);
    const app = createApp(store, options, closing.signal);
    const deliveries = new DeliveryRunner(app);
    app.scheduler.add(documentReviews(app), deliveries);
    const server = createServer(
      { keepAliveTimeout: 5_000 },
      createRequestListener(app, new Router(routes(app.profile))),
    );
    answerClientErrors(server);
    app.baseUrl = `http://127.0.0.1:${await listen(server, options.port ?? 0)}`;
    app.scheduler.kick(); // resumes reviews and deliveries left pending by a previous run
    let closed: Promise<void> | null = null;
    const close = async (): Promise<void> => {
      closing.abort();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await deliveries.close();
      await app.scheduler.close();
      await stopped;
      store.close();
    };
    return {
      baseUrl: app.baseUrl,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      profile: app.profile.name,
      tokenUrl: urlOf(app, app.profile.tokenPath),
      advanceClock: async (seconds) => {
        if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError('seconds must be 0 or more.');
        if (closing.signal.aborted) throw new Error('The sandbox is closed.');
        await advanceClock(app, seconds);
      },
      close: () => {
        closed ??= close();
        return closed;
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
