import type { z } from 'zod';
import { DeskError } from '#contract/errors.ts';
import { isServiceId, unusableIdMessage } from '#contract/service-id.ts';
import { currentPriority, RateLimitedError, type RequestBudget } from './budget.ts';
import { invalidResponse, ServiceError } from './errors.ts';
import { HAL_MEDIA_TYPE, idFromUrl } from './hal.ts';
import type { HttpRequest, HttpResponse, RequestBody, ServiceUrl, Transport } from './http.ts';
import type { TokenManager, TokenSession } from './token.ts';
import type { ServiceDialect } from './token-forms.ts';

export interface WriteOptions {
  /** Makes a POST safe to re-send: the service answers a repeat with the original response. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ApiRequest extends WriteOptions {
  method: HttpRequest['method'];
  /** A path under the base URL, or a URL of the service (a `Location`, a HAL link). */
  path: string;
  /** Sent as HAL+JSON. */
  json?: unknown;
  /**
   * Sent as HAL+JSON, written in the dialect of the service that issued the token the request
   * carries: for a body whose field names differ between today's service and the interface document.
   */
  jsonIn?: (dialect: ServiceDialect) => unknown;
  /** Any other body, with the headers that describe it. */
  body?: { headers: Record<string, string>; create: () => RequestBody };
}

/** An authorized call to the service. */
export type Api = (req: ApiRequest) => Promise<HttpResponse>;

function isRejectedToken(error: unknown): boolean {
  return (
    error instanceof ServiceError &&
    error.status === 401 &&
    (error.is('InvalidAccessToken') || error.is('ExpiredAccessToken'))
  );
}

function httpRequest(req: ApiRequest, url: ServiceUrl, { token, dialect }: TokenSession): HttpRequest {
  const headers: Record<string, string> = {
    Accept: HAL_MEDIA_TYPE,
    'Content-Type': HAL_MEDIA_TYPE,
    Authorization: `Bearer ${token}`,
  };
  let body: HttpRequest['body'];
  const json = req.jsonIn ? req.jsonIn(dialect) : req.json;
  if (json !== undefined) {
    const text = JSON.stringify(json);
    body = () => text;
  } else if (req.body) {
    Object.assign(headers, req.body.headers);
    body = req.body.create;
  }
  if (req.idempotencyKey) headers['Idempotency-Key'] = req.idempotencyKey;
  return {
    method: req.method,
    url,
    headers,
    body,
    retrySafe: req.method === 'GET' || (req.method === 'POST' && Boolean(req.idempotencyKey)),
    signal: req.signal,
  };
}

/**
 * Adds the bearer token. A token the service calls invalid or expired (its clock may run ahead of
 * ours) is renewed once and the request sent once more: a 401 means nothing was done.
 */
function bearerSender(transport: Transport, tokens: TokenManager) {
  return async (req: ApiRequest, url: ServiceUrl): Promise<HttpResponse> => {
    const session = await tokens.session();
    try {
      return await transport.send(httpRequest(req, url, session));
    } catch (error) {
      if (!isRejectedToken(error)) throw error;
      tokens.invalidate(session.token);
      return transport.send(httpRequest(req, url, await tokens.session()));
    }
  };
}

const isTooMany = (error: unknown): error is ServiceError =>
  error instanceof ServiceError && error.status === 429 && !(error instanceof RateLimitedError);

/**
 * Every call takes from the request budget first. A 429 the transport could not wait out closes the
 * budget's gate: background work waits for it to open and sends again (only what is safe to re-send);
 * a reviewer's call fails now, saying so, and the next ones fail without asking until the gate opens.
 */
export function createApi(
  transport: Transport,
  tokens: TokenManager,
  budget: RequestBudget,
  /** Told of a 429 that background work waits out (it ends in no failure the caller sees). */
  onWaitingOut: (error: ServiceError, until: number) => void = () => {},
): Api {
  const send = bearerSender(transport, tokens);
  return async (req) => {
    const url = transport.resolve(req.path);
    const who = currentPriority();
    const retrySafe = req.method === 'GET' || (req.method === 'POST' && Boolean(req.idempotencyKey));
    for (;;) {
      await budget.take(who, req.signal);
      try {
        const res = await send(req, url);
        budget.passed();
        return res;
      } catch (error) {
        if (!isTooMany(error)) throw error;
        const until = budget.limited(error.retryAfterMs);
        if (who === 'interactive' || !retrySafe) throw error;
        onWaitingOut(error, until);
      }
    }
  };
}

/** The body as the schema's type, or an InvalidResponse error. */
export function readAs<T extends z.ZodType>(schema: T, res: HttpResponse, what: string): z.output<T> {
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) throw invalidResponse(res.status, res.requestId, what);
  return parsed.data;
}

/** A create's answer: the new resource's URL (from `Location`) and id. */
export function createdResource(res: HttpResponse): { url: string; id: string } {
  if (!res.location) throw invalidResponse(res.status, res.requestId, 'no Location header');
  return { url: res.location, id: idFromUrl(res.location) };
}

/** A link the service gave (a `Location`, a HAL link's `href`): followed as given, under the base URL. */
export interface ServiceLink {
  href: string;
}

/** A resource by its id, or by a link the service gave. */
export type ResourceRef = string | ServiceLink;

const RESOURCE_NAMES: Record<string, string> = {
  customers: 'customer',
  documents: 'document',
  events: 'event',
  'webhook-subscriptions': 'subscription',
  webhooks: 'webhook',
};

/**
 * `/customers/<id>`, the id percent-encoded as one path segment: an id is opaque, whatever it holds (a
 * slash, `?`, `#`, `%`, or `https://…` is still an id, never a link). One no path segment can carry (`..`,
 * control characters; see service-id.ts) is refused in words naming it. A link of the service as it is.
 */
export function resourcePath(collection: string, ref: ResourceRef): string {
  if (typeof ref !== 'string') return ref.href;
  if (!isServiceId(ref)) {
    throw new DeskError('UnusableId', unusableIdMessage(RESOURCE_NAMES[collection] ?? 'resource', ref));
  }
  return `/${collection}/${encodeURIComponent(ref)}`;
}

export function withQuery(
  path: string,
  params: Record<string, string | number | string[] | undefined>,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== '') query.append(name, String(item));
    }
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
