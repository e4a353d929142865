import { z } from 'zod';
import { invalidResponse } from './errors.ts';
import type { Transport } from './http.ts';
import type { Log } from './log.ts';

const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive(),
  scope: z.string().optional(),
});

export interface TokenInfo {
  scope: string[];
  /** Epoch milliseconds, on the client's clock. */
  expiresAt: number;
}

export interface TokenManager {
  /** The cached token, or a new one when it is due for renewal (one request however many wait). */
  get(): Promise<string>;
  info(): TokenInfo | null;
  /** Forget the cached token; given a token, only if it is still the cached one. */
  invalidate(token?: string): void;
  /** Tokens obtained since start (the first and every renewal): the Diagnostics panel counts them. */
  issued(): number;
}

export interface TokenManagerOptions {
  transport: Transport;
  clientId: string;
  clientSecret: string;
  now: () => number;
  log: Log;
  /** Renew this long before expiry (default 60 s). */
  renewBeforeMs?: number;
}

/** About 60 s before expiry, but never more than half of a short lifetime (tests use 2 s tokens). */
export function renewalMarginMs(lifetimeMs: number, renewBeforeMs: number): number {
  return Math.min(renewBeforeMs, lifetimeMs / 2);
}

function parseScope(scope: string | undefined): string[] {
  return (scope ?? '').split(/[|\s]+/).filter(Boolean);
}

interface CachedToken {
  token: string;
  info: TokenInfo;
  renewAt: number;
}

/** Client credentials grant (JSON body, as in the interface document) with one shared cached token. */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const { transport, now, log } = options;
  let issued = 0;
  const url = transport.resolve('/oauth/v2/token');
  const grant = JSON.stringify({
    client_id: options.clientId,
    client_secret: options.clientSecret,
    grant_type: 'client_credentials',
  });
  let cached: CachedToken | null = null;
  let pending: Promise<string> | null = null;

  async function requestToken(): Promise<string> {
    const requestedAt = now();
    const res = await transport.send({
      method: 'POST',
      url,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: () => grant,
      // Issuing a token changes nothing on the service (older tokens stay valid): safe to re-send.
      retrySafe: true,
    });
    const parsed = tokenResponseSchema.safeParse(res.body);
    if (!parsed.success) throw invalidResponse(res.status, res.requestId, 'access token');
    const lifetimeMs = parsed.data.expires_in * 1000;
    // Counted from before the request, so the token never outlives our idea of it.
    const expiresAt = requestedAt + lifetimeMs;
    cached = {
      token: parsed.data.access_token,
      info: { scope: parseScope(parsed.data.scope), expiresAt },
      renewAt: expiresAt - renewalMarginMs(lifetimeMs, options.renewBeforeMs ?? 60_000),
    };
    issued++;
    log({
      level: 'info',
      msg: `Obtained an access token valid for ${parsed.data.expires_in} s`,
      requestId: res.requestId,
    });
    return cached.token;
  }

  return {
    issued: () => issued,
    get() {
      if (cached && now() < cached.renewAt) return Promise.resolve(cached.token);
      pending ??= requestToken().finally(() => {
        pending = null;
      });
      return pending;
    },
    info: () => (cached ? { ...cached.info, scope: [...cached.info.scope] } : null),
    invalidate(token) {
      if (token === undefined || cached?.token === token) cached = null;
    },
  };
}
