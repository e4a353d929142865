import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { acceptsHal, ClientGone, isJsonMediaType, MiB, parseJson, parseMediaType, readBody } from './body.ts';
import {
  ApiError,
  badRequest,
  fileTooLarge,
  notFound,
  serverError,
  serviceError,
  unsupportedContentType,
} from './errors.ts';
import {
  answersAfterWork,
  answersBeforeWork,
  type FaultKind,
  faultReply,
  type ReplyingFault,
} from './faults.ts';
import { type Claim, canonicalJson, claimKey, requestFingerprint } from './idempotency.ts';
import { MultipartError, multipartBoundary, parseMultipart } from './multipart.ts';
import { checkBearer } from './oauth.ts';
import { ERROR_MEDIA_TYPE, toWire, type WireReply } from './reply.ts';
import { type RouteMatch, type Router, routeName } from './router.ts';
import type { App, RequestContext, Route, RouteKind } from './types.ts';

/**
 * The request pipeline. Its order is the service's contract:
 * Accept (406) → bearer token (401) → route (404/405) → media type (415) → body (413/400) →
 * faults answered before work (429/503/401) → Idempotency-Key (replay/409/400) → handler →
 * faults answered after work (500/RequestTimeout/reset). Every answer carries X-Request-ID.
 */
const DEFAULT_BODY_LIMIT = 1 * MiB;

type Outcome =
  | { kind: 'reply'; wire: WireReply; closeConnection?: boolean; fault?: FaultKind }
  | { kind: 'reset' }
  | { kind: 'gone' };

interface ParsedBody {
  json: unknown;
  parts: RequestContext['parts'];
  raw: Buffer;
  rawTooLarge: boolean;
  /** Too long even to drain: the connection is closed after the answer. */
  abandoned: boolean;
  /** What "the same body" means for Idempotency-Key. */
  fingerprint: string | Buffer;
}

export function createRequestListener(app: App, router: Router) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void handleRequest(app, router, req, res);
  };
}

/** Malformed HTTP gets a 400 in the service's shape instead of Node's bare one. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (_error: Error, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const body = JSON.stringify({ code: 'BadRequest', message: 'Malformed HTTP request.' });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: ${ERROR_MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-ID: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

function splitTarget(target: string | undefined): { path: string; query: URLSearchParams } {
  const raw = target ?? '/';
  const mark = raw.indexOf('?');
  if (mark < 0) return { path: raw, query: new URLSearchParams() };
  return { path: raw.slice(0, mark), query: new URLSearchParams(raw.slice(mark + 1)) };
}

// Both profiles' token paths: the one a profile does not serve answers 404 whatever the headers,
// which is how a client tells which token endpoint a service has.
const TOKEN_PATHS = new Set(['/oauth/v2/token', '/token']);

function kindOfPath(path: string): RouteKind {
  if (TOKEN_PATHS.has(path)) return 'token';
  return path.startsWith('/sandbox/') ? 'control' : 'api';
}

async function handleRequest(
  app: App,
  router: Router,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const requestId = randomUUID();
  const started = performance.now();
  const method = req.method ?? 'GET';
  const { path, query } = splitTarget(req.url);
  const match = router.match(method, path);
  let outcome: Outcome;
  try {
    outcome = await answer(app, { req, requestId, method, path, query, match });
  } catch (error) {
    outcome = unexpected(app, error, requestId);
  }
  deliver(req, res, requestId, outcome);
  const label =
    outcome.kind === 'reply' ? String(outcome.wire.status) : outcome.kind === 'reset' ? 'reset' : 'aborted';
  app.stats.countRequest(match.route ? routeName(match.route) : `${method} (unmatched)`, label);
  if (!app.requestLog) return;
  const fault = outcome.kind === 'reply' && outcome.fault ? ` fault=${outcome.fault}` : '';
  const took = (performance.now() - started).toFixed(1);
  app.requestLog(`${new Date().toISOString()} ${requestId} ${method} ${path} ${label} ${took}ms${fault}`);
}

function unexpected(app: App, error: unknown, requestId: string): Outcome {
  if (error instanceof ClientGone || app.closing.aborted) return { kind: 'gone' };
  app.log(`${requestId} internal error: ${error instanceof Error ? error.message : String(error)}`);
  return { kind: 'reply', wire: errorWire(app, serverError(requestId)) };
}

/** Errors go out as the profile spells them. */
const errorWire = (app: App, error: ApiError): WireReply => toWire(app.profile.errorReply(error));

function deliver(req: IncomingMessage, res: ServerResponse, requestId: string, outcome: Outcome): void {
  if (outcome.kind === 'gone' || res.headersSent || res.destroyed) return;
  if (outcome.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  const { wire, closeConnection } = outcome;
  const headers: Record<string, string> = {
    ...wire.headers,
    'X-Request-ID': requestId,
    'Content-Length': String(wire.body.length),
  };
  if (closeConnection) {
    headers.Connection = 'close';
    res.once('finish', () => req.socket.destroy());
  }
  res.writeHead(wire.status, headers);
  res.end(wire.body);
}

interface Incoming {
  req: IncomingMessage;
  requestId: string;
  method: string;
  path: string;
  query: URLSearchParams;
  match: RouteMatch;
}

const replyOf = (app: App, error: ApiError, extra: Partial<Outcome> = {}): Outcome => ({
  kind: 'reply',
  wire: errorWire(app, error),
  ...extra,
});

async function answer(app: App, incoming: Incoming): Promise<Outcome> {
  const { req, requestId, path, match } = incoming;
  const refusal = preflight(app, incoming);
  if (refusal) return replyOf(app, refusal);
  const route = match.route!;
  let body: ParsedBody;
  try {
    body = await readRouteBody(req, route);
  } catch (error) {
    if (error instanceof BodyRefused)
      return replyOf(app, error.error, { closeConnection: error.closeConnection });
    throw error;
  }
  const fault = route.kind === 'control' ? null : app.faults.pick(route.pattern, path, app.clock.now());
  const faulted = (kind: ReplyingFault): Outcome => ({
    kind: 'reply',
    wire: toWire(faultReply(kind, requestId, app.profile.tooManyRequestsHeaders)),
    fault: kind,
  });
  if (answersBeforeWork(fault)) return faulted(fault);
  let claim: Claim | null;
  try {
    claim = claimFor(app, incoming, body);
  } catch (error) {
    if (error instanceof ApiError) return replyOf(app, error);
    throw error;
  }
  const wire =
    claim?.kind === 'replay' ? claim.reply : await runHandler(app, route, incoming, body, claim, fault);
  if (fault === 'reset') return { kind: 'reset' };
  if (answersAfterWork(fault)) return faulted(fault);
  return { kind: 'reply', wire, fault: fault ?? undefined, closeConnection: body.abandoned };
}

/** Accept, token and route; answered without reading the body. */
function preflight(app: App, { req, path, match }: Incoming): ApiError | null {
  const kind = match.route?.kind ?? kindOfPath(path);
  if (kind === 'api' && !acceptsHal(req.headers.accept)) {
    return serviceError(406, 'InvalidVersion', 'Missing or invalid API version.');
  }
  if (kind !== 'token') {
    const unauthorized = checkBearer(app, req.headers.authorization);
    if (unauthorized) return unauthorized;
  }
  if (match.route) return null;
  if (match.allowed.length === 0) return notFound();
  return serviceError(405, 'MethodNotAllowed', 'Method not allowed.', { Allow: match.allowed.join(', ') });
}

class BodyRefused extends Error {
  readonly error: ApiError;
  readonly closeConnection: boolean;

  constructor(error: ApiError, closeConnection = false) {
    super(error.message);
    this.error = error;
    this.closeConnection = closeConnection;
  }
}

const EMPTY: ParsedBody = {
  json: undefined,
  parts: [],
  raw: Buffer.alloc(0),
  rawTooLarge: false,
  abandoned: false,
  fingerprint: '',
};

async function readRouteBody(req: IncomingMessage, route: Route): Promise<ParsedBody> {
  const mode = route.body ?? 'none';
  const limit = route.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const contentType = req.headers['content-type'];
  if (mode === 'json' && !isJsonMediaType(parseMediaType(contentType).essence)) {
    throw new BodyRefused(
      unsupportedContentType('Content-Type must be application/vnd.service.v1.hal+json or application/json.'),
    );
  }
  if (mode === 'none' && !announcesBody(req)) return EMPTY;
  const boundary = mode === 'multipart' ? multipartBoundaryOf(contentType) : null;
  const { bytes, tooLarge, abandoned } = await readBody(req, limit);
  if (mode === 'raw') return { ...EMPTY, raw: bytes, rawTooLarge: tooLarge, abandoned, fingerprint: bytes };
  if (mode === 'none') return { ...EMPTY, abandoned };
  if (tooLarge) {
    const limitText = mode === 'json' ? fileTooLarge('JSON requests are limited to 1 MiB.') : fileTooLarge();
    throw new BodyRefused(limitText, abandoned);
  }
  if (boundary !== null) return multipartBody(bytes, boundary);
  const parsed = parseJson(bytes);
  if (!parsed.ok) throw new BodyRefused(badRequest(parsed.reason));
  return { ...EMPTY, json: parsed.value, fingerprint: jsonFingerprint(parsed.value, bytes) };
}

// Absurdly deep JSON can overflow the stack while canonicalising; its bytes then stand for it.
function jsonFingerprint(value: unknown, bytes: Buffer): string | Buffer {
  try {
    return canonicalJson(value);
  } catch {
    return bytes;
  }
}

/** Most GETs have no body; skipping the read keeps the hot path short. */
function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function multipartBoundaryOf(contentType: string | undefined): string {
  if (parseMediaType(contentType).essence !== 'multipart/form-data') {
    throw new BodyRefused(unsupportedContentType('Documents must be uploaded as multipart/form-data.'));
  }
  const boundary = multipartBoundary(contentType);
  if (!boundary)
    throw new BodyRefused(badRequest('The multipart/form-data Content-Type has no valid boundary.'));
  return boundary;
}

function multipartBody(bytes: Buffer, boundary: string): ParsedBody {
  try {
    const parts = parseMultipart(bytes, boundary);
    // The boundary differs on every send; the parts are what makes two uploads "the same".
    const fingerprint = canonicalJson(
      parts.map((part) => [part.name, part.filename ?? null, part.data.toString('base64')]),
    );
    return { ...EMPTY, parts, fingerprint };
  } catch (error) {
    if (error instanceof MultipartError) throw new BodyRefused(badRequest(error.message));
    throw error;
  }
}

function claimFor(app: App, { req, method, path }: Incoming, body: ParsedBody): Claim | null {
  const key = req.headers['idempotency-key'];
  if (method !== 'POST' || typeof key !== 'string' || key === '') return null;
  return claimKey(app, key, requestFingerprint(method, path, body.fingerprint));
}

async function runHandler(
  app: App,
  route: Route,
  incoming: Incoming,
  body: ParsedBody,
  claim: Claim | null,
  fault: FaultKind | null,
): Promise<WireReply> {
  const fresh = claim?.kind === 'fresh' ? claim : null;
  try {
    if (fault === 'delay') await app.faults.hold(app.closing);
    const ctx: RequestContext = {
      app,
      requestId: incoming.requestId,
      method: incoming.method,
      path: incoming.path,
      query: incoming.query,
      params: incoming.match.params,
      headers: incoming.req.headers,
      json: body.json,
      parts: body.parts,
      raw: body.raw,
      rawTooLarge: body.rawTooLarge,
    };
    const wire = toWire(await route.handle(ctx));
    fresh?.complete(wire);
    return wire;
  } catch (error) {
    if (!(error instanceof ApiError)) {
      if (!app.closing.aborted) fresh?.release();
      throw error;
    }
    const wire = errorWire(app, error);
    fresh?.complete(wire);
    return wire;
  }
}
