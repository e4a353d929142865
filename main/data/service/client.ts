import { type Api, createApi } from './api.ts';
import { type BudgetOptions, createRequestBudget } from './budget.ts';
import { type CustomersApi, customersApi } from './customers.ts';
import { type DocumentsApi, documentsApi } from './documents.ts';
import { type EventsApi, eventsApi } from './events.ts';
import { createTransport, defaultTimeouts } from './http.ts';
import { type Log, silentLog } from './log.ts';
import type { NetworkOptions, Timeouts } from './network.ts';
import { defaultRetryPolicy, type RetryPolicy, sleep } from './request-retry.ts';
import { type SubscriptionsApi, subscriptionsApi } from './subscriptions.ts';
import { createTokenManager, type TokenInfo } from './token.ts';
import type { ServiceDialect, TokenEndpointChoice, TokenForm } from './token-forms.ts';

export interface ServiceClientOptions {
  /** e.g. `https://api.example.com`; every request and followed URL stays under it. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The "Token endpoint" setting (default Automatic). */
  tokenEndpoint?: TokenEndpointChoice;
  /** The form Automatic found for this account before; `onTokenFormLearned` hears of a new one. */
  rememberedTokenForm?: TokenForm;
  onTokenFormLearned?: (form: TokenForm) => void;
  /** The request budget shared by every call (rate, burst, 429 back-off); its clock defaults to `now`. */
  budget?: Partial<BudgetOptions>;
  /** Never receives a token, a secret, a query string or a body. */
  log?: Log;
  /** How each call ended (after retries and token renewal): for a connection status display. */
  onOutcome?: (outcome: CallOutcome) => void;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Connections kept to the service at most (default 16). */
  connections?: number;
  /** Proxy from the environment, extra CAs (default: a direct connection, the default CAs). */
  network?: NetworkOptions;
  // Injectable for tests.
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** `rateLimitedUntil`: the service asked to slow down, and nothing is sent before then (epoch ms). */
export type CallOutcome = { ok: true } | { ok: false; error: unknown; rateLimitedUntil?: number | null };

export interface ServiceClient {
  token: {
    get(): Promise<string>;
    info(): TokenInfo | null;
    invalidate(): void;
    /**
     * Which service this is, by the form of the last token (a forced form's from the start; under
     * Automatic, unknown until the first token): the dialect writes use. Absent from stand-ins.
     */
    dialect?(): ServiceDialect | undefined;
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

function observed<T>(
  call: Promise<T>,
  onOutcome: (outcome: CallOutcome) => void,
  rateLimitedUntil: () => number | null,
): Promise<T> {
  return call.then(
    (value) => {
      onOutcome({ ok: true });
      return value;
    },
    (error: unknown) => {
      onOutcome({ ok: false, error, rateLimitedUntil: rateLimitedUntil() });
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
    network: options.network,
    log,
    now,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
  });
  const tokens = createTokenManager({
    transport,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    endpoint: options.tokenEndpoint,
    remembered: options.rememberedTokenForm,
    onLearned: options.onTokenFormLearned && guarded(options.onTokenFormLearned),
    now,
    log,
  });
  const budget = createRequestBudget({ now, sleep, ...definedOnly(options.budget) });
  const onOutcome = options.onOutcome && guarded(options.onOutcome);
  // A 429 that background work waits out must still show in the status bar, with the next try.
  const authorized = createApi(transport, tokens, budget, (error, until) =>
    onOutcome?.({ ok: false, error, rateLimitedUntil: until }),
  );
  const watch = <T>(call: Promise<T>) => (onOutcome ? observed(call, onOutcome, budget.closedUntil) : call);
  const api: Api = (req) => watch(authorized(req));
  return {
    token: {
      get: () => watch(tokens.get()),
      info: () => tokens.info(),
      invalidate: () => tokens.invalidate(),
      dialect: () => tokens.dialect(),
      issued: () => tokens.issued(),
    },
    customers: customersApi(api),
    documents: documentsApi(api),
    events: eventsApi(api),
    subscriptions: subscriptionsApi(api),
    close: () => transport.close(),
  };
}
