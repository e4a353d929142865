import { z } from 'zod';
import { invalidResponse, NetworkError, ServiceError, TokenError } from './errors.ts';
import type { HttpResponse, Transport } from './http.ts';
import type { Log } from './log.ts';
import {
  isMissingEndpoint,
  type ServiceDialect,
  type TokenEndpointChoice,
  type TokenForm,
  tokenRequest,
} from './token-forms.ts';

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

/** A token, and the dialect of the service that issued it (the form it was asked in). */
export interface TokenSession {
  token: string;
  dialect: ServiceDialect;
}

export interface TokenManager {
  /** The cached token, or a new one when it is due for renewal (one request however many wait). */
  get(): Promise<string>;
  /** `get()` with the dialect the token was obtained in: what a request's body is written in. */
  session(): Promise<TokenSession>;
  /** The dialect of the last token obtained (a forced form's from the start); undefined before Automatic's first. */
  dialect(): ServiceDialect | undefined;
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
  /** Which form of token request to use (default Automatic). */
  endpoint?: TokenEndpointChoice;
  /** What worked for this account before (Automatic tries it first, so a start does not probe). */
  remembered?: TokenForm;
  /** Told when Automatic finds the form that works, to remember it for this account. */
  onLearned?: (form: TokenForm) => void;
  now: () => number;
  log: Log;
  /** Renew this long before expiry (default 60 s). */
  renewBeforeMs?: number;
  /**
   * How long a failed token request answers every caller without asking again (default 30 s): a
   * refused secret or a missing endpoint does not fix itself, and every call of a start must not
   * ask again. "Test connection" and new settings ask at once.
   */
  failureHoldMs?: number;
}

/** About 60 s before expiry, but never more than half of a short lifetime (tests use 2 s tokens). */
export function renewalMarginMs(lifetimeMs: number, renewBeforeMs: number): number {
  return Math.min(renewBeforeMs, lifetimeMs / 2);
}

function parseScope(scope: string | undefined): string[] {
  return (scope ?? '').split(/[|\s]+/).filter(Boolean);
}

interface CachedToken extends TokenSession {
  info: TokenInfo;
  renewAt: number;
}

const otherForm = (form: TokenForm): TokenForm => (form === 'real' ? 'document' : 'real');

/** Client credentials grant in either form, with one shared cached token. */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const { transport, now, log } = options;
  let issued = 0;
  const credentials = { clientId: options.clientId, clientSecret: options.clientSecret };
  const choice = options.endpoint ?? 'automatic';
  const failureHoldMs = options.failureHoldMs ?? 30_000;
  let learned = options.remembered;
  let lastDialect: ServiceDialect | undefined = choice === 'automatic' ? undefined : choice;
  let cached: CachedToken | null = null;
  let pending: Promise<CachedToken> | null = null;
  let failed: { error: unknown; until: number } | null = null;

  const send = async (form: TokenForm) => ({
    form,
    res: await transport.send(tokenRequest(transport, form, credentials)),
  });

  /** Automatic: the remembered form (else the real one) first, the other when the first is not there. */
  async function ask(): Promise<{ form: TokenForm; res: HttpResponse }> {
    if (choice !== 'automatic') return send(choice);
    const first = learned ?? 'real';
    try {
      return await send(first);
    } catch (error) {
      if (!(error instanceof ServiceError && isMissingEndpoint(error.status, error.code))) throw error;
      log({
        level: 'info',
        msg: `No ${first === 'real' ? '/token' : '/oauth/v2/token'} token endpoint; trying the other form`,
      });
      try {
        return await send(otherForm(first));
      } catch (second) {
        // Neither is there: the first answer (the form the service is expected to have) says more.
        throw second instanceof ServiceError && isMissingEndpoint(second.status, second.code)
          ? error
          : second;
      }
    }
  }

  async function requestToken(): Promise<CachedToken> {
    const requestedAt = now();
    const { form, res } = await ask();
    const parsed = tokenResponseSchema.safeParse(res.body);
    if (!parsed.success || (parsed.data.token_type ?? 'bearer').toLowerCase() !== 'bearer') {
      throw invalidResponse(res.status, res.requestId, 'access token');
    }
    if (choice === 'automatic' && form !== learned) {
      learned = form;
      options.onLearned?.(form);
    }
    const lifetimeMs = parsed.data.expires_in * 1000;
    // Counted from before the request, so the token never outlives our idea of it.
    const expiresAt = requestedAt + lifetimeMs;
    lastDialect = form;
    cached = {
      token: parsed.data.access_token,
      dialect: form,
      info: { scope: parseScope(parsed.data.scope), expiresAt },
      renewAt: expiresAt - renewalMarginMs(lifetimeMs, options.renewBeforeMs ?? 60_000),
    };
    issued++;
    log({
      level: 'info',
      msg: `Obtained an access token valid for ${parsed.data.expires_in} s`,
      requestId: res.requestId,
    });
    return cached;
  }

  /** The token endpoint's refusals become TokenErrors: no caller may read them as its resource's answer. */
  async function requestOrFail(): Promise<CachedToken> {
    try {
      const token = await requestToken();
      failed = null;
      return token;
    } catch (error) {
      const thrown = error instanceof ServiceError ? new TokenError(error) : error;
      if (!(thrown instanceof NetworkError && thrown.kind === 'aborted')) {
        // The network may come back any moment: a shorter hold, so the offline probe notices soon.
        const hold = thrown instanceof TokenError ? failureHoldMs : Math.min(failureHoldMs, 5_000);
        failed = { error: thrown, until: now() + hold };
      }
      throw thrown;
    }
  }

  function current(): Promise<CachedToken> {
    if (cached && now() < cached.renewAt) return Promise.resolve(cached);
    if (failed && now() < failed.until) return Promise.reject(failed.error);
    pending ??= requestOrFail().finally(() => {
      pending = null;
    });
    return pending;
  }

  return {
    issued: () => issued,
    get: () => current().then(({ token }) => token),
    session: () => current().then(({ token, dialect }) => ({ token, dialect })),
    dialect: () => lastDialect,
    info: () => (cached ? { ...cached.info, scope: [...cached.info.scope] } : null),
    invalidate(token) {
      if (token === undefined) failed = null;
      if (token === undefined || cached?.token === token) cached = null;
    },
  };
}
