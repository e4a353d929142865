import { type Api, createApi } from './api.ts';
import { type CustomersApi, customersApi } from './customers.ts';
import { type DocumentsApi, documentsApi } from './documents.ts';
import { type EventsApi, eventsApi } from './events.ts';
import { createTransport, defaultTimeouts, type Timeouts } from './http.ts';
import { type Log, silentLog } from './log.ts';
import { defaultRetryPolicy, type RetryPolicy, sleep } from './request-retry.ts';
import { type SubscriptionsApi, subscriptionsApi } from './subscriptions.ts';
import { createTokenManager, type TokenInfo } from './token.ts';

export interface ServiceClientOptions {
  /** e.g. `https://api.example.com`; every request and followed URL stays under it. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Never receives a token, a secret, a query string or a body. */
  log?: Log;
  /** How each call ended (after retries and token renewal): for a connection status display. */
  onOutcome?: (outcome: CallOutcome) => void;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Connections kept to the service at most (default 16). */
  connections?: number;
  // Injectable for tests.
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type CallOutcome = { ok: true } | { ok: false; error: unknown };

export interface ServiceClient {
  token: {
    get(): Promise<string>;
    info(): TokenInfo | null;
    invalidate(): void;
    /** Tokens obtained since start; absent from stand-ins that have none. */
    issued?(): number;
  };
  customers: CustomersApi;
  documents: DocumentsApi;
  events: EventsApi;
  subscriptions: SubscriptionsApi;
  /** Aborts the requests in flight and closes the connections; later calls fail as aborted. */
  close(): Promise<void>;
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A listener that throws must not fail the call it was told about. */
function guarded<T>(listener: (value: T) => void): (value: T) => void {
  return (value) => {
    try {
      listener(value);
    } catch {}
  };
}

function observed<T>(call: Promise<T>, onOutcome: (outcome: CallOutcome) => void): Promise<T> {
  return call.then(
    (value) => {
      onOutcome({ ok: true });
      return value;
    },
    (error: unknown) => {
      onOutcome({ ok: false, error });
      throw error;
    },
  );
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const log = guarded(options.log ?? silentLog);
  const now = options.now ?? Date.now;
  const transport = createTransport({
    baseUrl: options.baseUrl,
    timeouts: { ...defaultTimeouts, ...definedOnly(options.timeouts) },
    retry: { ...defaultRetryPolicy, ...definedOnly(options.retry) },
    connections: options.connections,
    log,
    now,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
  });
  const tokens = createTokenManager({
    transport,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    now,
    log,
  });
  const onOutcome = options.onOutcome && guarded(options.onOutcome);
  const authorized = createApi(transport, tokens);
  const api: Api = onOutcome ? (req) => observed(authorized(req), onOutcome) : authorized;
  return {
    token: {
      get: () => (onOutcome ? observed(tokens.get(), onOutcome) : tokens.get()),
      info: () => tokens.info(),
      invalidate: () => tokens.invalidate(),
      issued: () => tokens.issued(),
    },
    customers: customersApi(api),
    documents: documentsApi(api),
    events: eventsApi(api),
    subscriptions: subscriptionsApi(api),
    close: () => transport.close(),
  };
}
