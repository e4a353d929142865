import type { Readable } from 'node:stream';
import { classifyNetworkError, errorFromResponse, NetworkError, ServiceError } from './errors.ts';
import type { Log, LogEntry } from './log.ts';
import { type NetworkOptions, serviceDispatcher, type Timeouts } from './network.ts';
import { nextRetryDelayMs, parseRetryAfter, type RetryPolicy } from './request-retry.ts';

export const defaultTimeouts: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

export type RequestBody = string | Uint8Array | Readable;
export type Headers = Record<string, string | string[] | undefined>;

/** Where a request goes, as strings: undici takes them as they are, with no URL object per request. */
export interface ServiceUrl {
  origin: string;
  /** Path and query. */
  path: string;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: ServiceUrl;
  headers: Record<string, string>;
  /** A factory, because a re-sent request needs a fresh body (a stream is read once). */
  body?: () => RequestBody;
  /** Whether re-sending cannot do anything twice: GETs, and POSTs that carry an Idempotency-Key. */
  retrySafe: boolean;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  requestId?: string;
  /** `Location`, resolved against the request URL. */
  location?: string;
  /** Parsed JSON; undefined when the body was empty or not JSON. */
  body: unknown;
  /** True when a non-empty body was not JSON. */
  unreadable: boolean;
}

export interface TransportOptions {
  baseUrl: string;
  timeouts: Timeouts;
  retry: RetryPolicy;
  log: Log;
  now: () => number;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Connections kept to the service at most. */
  connections?: number;
  /** Proxy and extra certificate authorities (default: neither). */
  network?: NetworkOptions;
}

export interface Transport {
  /** A path under the base URL, or an absolute URL of the service (never another origin). */
  resolve(pathOrUrl: string): ServiceUrl;
  /** 2xx → the response; anything else → ServiceError or NetworkError, after any safe retries. */
  send(req: HttpRequest): Promise<HttpResponse>;
  /** Aborts what is in flight and closes the connections. */
  close(): Promise<void>;
}

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Resolving every URL through the base keeps the bearer token from following a `Location` or a
 * HAL link to a host that is not the service.
 */
export function serviceUrlResolver(baseUrl: string): (pathOrUrl: string) => ServiceUrl {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  return (pathOrUrl) => {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) {
      return { origin: base.origin, path: `${basePath}/${pathOrUrl.replace(/^\/+/, '')}` };
    }
    const url = new URL(pathOrUrl);
    const underBase = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
    if (url.origin !== base.origin || !underBase) {
      throw new Error(
        `Refusing to call ${url.origin}${url.pathname}: it is not under the service's base URL.`,
      );
    }
    return { origin: url.origin, path: `${url.pathname}${url.search}` };
  };
}

/** The path without its query, which may hold personal data (`?email=`): what the log may show. */
export function loggablePath(url: ServiceUrl): string {
  const query = url.path.indexOf('?');
  return query < 0 ? url.path : url.path.slice(0, query);
}

function parseBody(text: string): { body: unknown; unreadable: boolean } {
  if (!/\S/.test(text)) return { body: undefined, unreadable: false };
  try {
    return { body: JSON.parse(text), unreadable: false };
  } catch {
    return { body: undefined, unreadable: true };
  }
}

/** Only transient failures are worth a retry: the network, 5xx and 429. */
function isTransient(failure: ServiceError | NetworkError): boolean {
  if (failure instanceof NetworkError) return failure.retryable;
  return failure.status >= 500 || failure.status === 429;
}

function failureLevel(failure: ServiceError | NetworkError): LogEntry['level'] {
  if (failure instanceof NetworkError) return failure.kind === 'aborted' ? 'info' : 'error';
  return failure.status >= 500 ? 'error' : 'warn';
}

/** What a transport's requests share: the connections, the signal of its closing, and its options. */
interface TransportState {
  options: TransportOptions;
  agent: ReturnType<typeof serviceDispatcher>;
  shutdown: AbortController;
}

const closedError = () => new NetworkError('aborted', { message: 'The service client is closed.' });

export function createTransport(options: TransportOptions): Transport {
  const state: TransportState = {
    options,
    agent: serviceDispatcher(options.timeouts, options.connections ?? 16, options.network),
    // Close destroys the agent, which fails whatever is in flight: cheaper than a shared signal on
    // every request (an abort listener added and removed each time). The signal stops back-off waits.
    shutdown: new AbortController(),
  };
  let closing: Promise<void> | undefined;
  return {
    resolve: serviceUrlResolver(options.baseUrl),
    send: (req) => send(state, req),
    close() {
      closing ??= (async () => {
        const error = closedError();
        state.shutdown.abort(error);
        await state.agent.destroy(error);
      })();
      return closing;
    },
  };
}

async function send(state: TransportState, req: HttpRequest): Promise<HttpResponse> {
  const { now, retry, random } = state.options;
  if (state.shutdown.signal.aborted) throw closedError();
  const started = now();
  for (let attempts = 1; ; attempts++) {
    let failure: ServiceError | NetworkError;
    try {
      return await sendOnce(state, req);
    } catch (error) {
      failure = asFailure(state, req, error);
    }
    const retryAfterMs = failure instanceof ServiceError ? failure.retryAfterMs : undefined;
    const delay =
      req.retrySafe && isTransient(failure)
        ? nextRetryDelayMs({ attempts, elapsedMs: now() - started, retryAfterMs }, retry, random)
        : undefined;
    logFailure(state.options, req, failure, attempts, delay);
    if (delay === undefined) throw failure;
    await backOff(state, req, delay);
  }
}

async function sendOnce({ agent, options }: TransportState, req: HttpRequest): Promise<HttpResponse> {
  const res = await agent.request({
    origin: req.url.origin,
    path: req.url.path,
    method: req.method,
    headers: req.headers,
    body: req.body?.(),
    signal: req.signal,
  });
  const { body, unreadable } = parseBody(await res.body.text());
  const requestId = firstHeader(res.headers['x-request-id']);
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const retryAfterMs = parseRetryAfter(firstHeader(res.headers['retry-after']), options.now());
    throw errorFromResponse({ status: res.statusCode, body, requestId, retryAfterMs });
  }
  const location = firstHeader(res.headers.location);
  return {
    status: res.statusCode,
    headers: res.headers,
    requestId,
    location: location ? new URL(location, `${req.url.origin}${req.url.path}`).href : undefined,
    body,
    unreadable,
  };
}

function asFailure(
  { shutdown }: TransportState,
  req: HttpRequest,
  error: unknown,
): ServiceError | NetworkError {
  if (error instanceof ServiceError) return error;
  const aborted = shutdown.signal.aborted || req.signal?.aborted === true;
  const network = classifyNetworkError(error, aborted);
  if (!network) throw error;
  return network;
}

function logFailure(
  { log, retry }: TransportOptions,
  req: HttpRequest,
  failure: ServiceError | NetworkError,
  attempts: number,
  delay?: number,
): void {
  const path = loggablePath(req.url);
  const entry: LogEntry = { level: failureLevel(failure), msg: '', method: req.method, path };
  if (failure instanceof ServiceError) {
    Object.assign(entry, { status: failure.status, code: failure.code, requestId: failure.requestId });
  }
  const what =
    failure instanceof ServiceError ? `${failure.status} ${failure.code}` : `network error (${failure.kind})`;
  entry.msg = `${req.method} ${path} failed: ${what}`;
  if (delay !== undefined) {
    entry.level = 'warn';
    entry.msg += `; retrying in ${delay} ms (attempt ${attempts + 1} of ${retry.maxAttempts})`;
  }
  log(entry);
}

/** Waits out a back-off; closing the client or the caller's signal ends the wait as aborted. */
async function backOff(
  { options, shutdown }: TransportState,
  req: HttpRequest,
  delay: number,
): Promise<void> {
  const signal = req.signal ? AbortSignal.any([shutdown.signal, req.signal]) : shutdown.signal;
  try {
    await options.sleep(delay, signal);
  } catch (error) {
    throw error instanceof NetworkError ? error : new NetworkError('aborted', { cause: error });
  }
}
