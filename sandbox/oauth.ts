import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isJsonMediaType, parseJson, parseMediaType } from './body.ts';
import { ApiError, serviceError } from './errors.ts';
import { JSON_MEDIA_TYPE, type Reply } from './reply.ts';
import type { SandboxSecrets } from './secrets.ts';
import { type Store, stableValue } from './store.ts';
import type { App, RequestContext, Route } from './types.ts';

/** OAuth 2.0 client credentials (service-facts.md §3) and the bearer check of every other route. */
export const TOKEN_SCOPE = 'AccountInfoFull|ManageAccount|Contacts|Transactions|Balance|Send|Request|Funding';
const TOKEN_BODY_LIMIT = 64 * 1024;

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/**
 * Stable for a data file, fresh for `:memory:`. A client secret sealed with a key that is gone
 * cannot be recovered: a new one is made (the client ID stays).
 */
export function loadCredentials(store: Store, secrets: SandboxSecrets): Credentials {
  const clientId = stableValue(store, 'client_id', () => randomBytes(24).toString('base64url'));
  const sealed = store.getMeta('client_secret');
  if (sealed !== undefined) {
    try {
      return { clientId, clientSecret: secrets.open(sealed) };
    } catch {
      // fall through to a new secret
    }
  }
  const clientSecret = randomBytes(36).toString('base64url');
  store.setMeta('client_secret', secrets.seal(clientSecret));
  return { clientId, clientSecret };
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

// Hashing first gives equal lengths, so the comparison takes the same time whatever was sent.
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

// OAuth-style errors (`{"error": ...}`) in plain JSON, like the rest of the token endpoint.
function oauthError(status: number, error: string): ApiError {
  return new ApiError(status, { error }, undefined, JSON_MEDIA_TYPE);
}

interface TokenRequest {
  grantType?: unknown;
  clientId?: unknown;
  clientSecret?: unknown;
}

function readTokenRequest(ctx: RequestContext): TokenRequest {
  if (ctx.rawTooLarge) throw oauthError(400, 'invalid_request');
  const { essence } = parseMediaType(ctx.headers['content-type']);
  let fields: Record<string, unknown> = {};
  if (ctx.raw.length > 0 && isJsonMediaType(essence)) {
    const parsed = parseJson(ctx.raw);
    if (
      !parsed.ok ||
      typeof parsed.value !== 'object' ||
      parsed.value === null ||
      Array.isArray(parsed.value)
    ) {
      throw oauthError(400, 'invalid_request');
    }
    fields = parsed.value as Record<string, unknown>;
  } else if (ctx.raw.length > 0 && essence === 'application/x-www-form-urlencoded') {
    fields = Object.fromEntries(new URLSearchParams(ctx.raw.toString('utf8')));
  } else if (ctx.raw.length > 0) {
    throw oauthError(400, 'invalid_request');
  }
  const basic = basicCredentials(ctx.headers.authorization);
  if (ctx.app.profile.tokenRequest === 'form-basic') {
    // Today's real service: the form body, and the credentials only in the Basic header.
    if (essence !== 'application/x-www-form-urlencoded') throw oauthError(400, 'invalid_request');
    if (!basic) throw oauthError(401, 'invalid_client');
  }
  return {
    grantType: fields.grant_type,
    clientId: basic ? basic.clientId : fields.client_id,
    clientSecret: basic ? basic.clientSecret : fields.client_secret,
  };
}

/** `Authorization: Basic base64(id:secret)`, each part form-encoded as RFC 6749 §2.3.1 says. */
function basicCredentials(header: string | undefined): Credentials | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) {
    if (/^Basic\b/i.test(header ?? '')) throw oauthError(400, 'invalid_request');
    return null;
  }
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw oauthError(400, 'invalid_request');
  try {
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return {
      clientId: formDecode(decoded.slice(0, colon)),
      clientSecret: formDecode(decoded.slice(colon + 1)),
    };
  } catch {
    throw oauthError(400, 'invalid_request');
  }
}

function issueToken(ctx: RequestContext): Reply {
  const { app } = ctx;
  const request = readTokenRequest(ctx);
  if (typeof request.grantType !== 'string') throw oauthError(400, 'invalid_request');
  if (request.grantType !== 'client_credentials') throw oauthError(400, 'unsupported_grant_type');
  if (typeof request.clientId !== 'string' || typeof request.clientSecret !== 'string') {
    throw oauthError(400, 'invalid_request');
  }
  const valid =
    sameSecret(request.clientId, app.clientId) && sameSecret(request.clientSecret, app.clientSecret);
  if (!valid) throw oauthError(401, 'invalid_client');
  const token = randomBytes(36).toString('base64url');
  const now = app.clock.now();
  app.store.run(
    'INSERT INTO tokens (hash, issued_ms, expires_ms) VALUES (?, ?, ?)',
    sha256(token).toString('hex'),
    now,
    now + app.tokenTtlSeconds * 1000,
  );
  return {
    status: 200,
    contentType: JSON_MEDIA_TYPE,
    headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    body: app.profile.tokenResponse(token, app.tokenTtlSeconds),
  };
}

/** The token endpoint at the profile's path. */
export function oauthRoutes(tokenPath: string): Route[] {
  return [
    {
      method: 'POST',
      pattern: tokenPath,
      kind: 'token',
      body: 'raw',
      bodyLimit: TOKEN_BODY_LIMIT,
      handle: issueToken,
    },
  ];
}

// Tokens are never revoked, so a token's expiry, once read, can be remembered: every API request checks one.
const knownExpiries = new WeakMap<App, Map<string, number>>();
const MAX_REMEMBERED_TOKENS = 10_000;

function expiryOf(app: App, token: string): number | undefined {
  let remembered = knownExpiries.get(app);
  if (!remembered) {
    remembered = new Map();
    knownExpiries.set(app, remembered);
  }
  const known = remembered.get(token);
  if (known !== undefined) return known;
  const row = app.store.get<{ expires_ms: number }>(
    'SELECT expires_ms FROM tokens WHERE hash = ?',
    sha256(token).toString('hex'),
  );
  if (!row) return undefined;
  if (remembered.size >= MAX_REMEMBERED_TOKENS) remembered.clear();
  remembered.set(token, row.expires_ms);
  return row.expires_ms;
}

/** The 401 for a request without a usable bearer token, or null when the token is good. */
export function checkBearer(app: App, authorization: string | undefined): ApiError | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return serviceError(401, 'InvalidCredentials', 'Missing or invalid Authorization header.');
  const expiresMs = expiryOf(app, match[1]!);
  if (expiresMs === undefined) return serviceError(401, 'InvalidAccessToken', 'Invalid access token.');
  if (app.clock.now() >= expiresMs) {
    return serviceError(
      401,
      'ExpiredAccessToken',
      'Generate a new access token using your client credentials.',
    );
  }
  return null;
}

export function tokensIssued(store: Store): number {
  return store.get<{ n: number }>('SELECT COUNT(*) AS n FROM tokens')?.n ?? 0;
}
