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

/** A token manager's state: the form it asks in, what it learnt, and the token cached or being asked for. */
interface TokenState {
  options: TokenManagerOptions;
  choice: TokenEndpointChoice;
  failureHoldMs: number;
  issued: number;
  learned: TokenForm | undefined;
  lastDialect: ServiceDialect | undefined;
  cached: CachedToken | null;
  pending: Promise<CachedToken> | null;
  failed: { error: unknown; until: number } | null;
}

/** Client credentials grant in either form, with one shared cached token. */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const choice = options.endpoint ?? 'automatic';
  const state: TokenState = {
    options,
    choice,
    failureHoldMs: options.failureHoldMs ?? 30_000,
    issued: 0,
    learned: options.remembered,
    lastDialect: choice === 'automatic' ? undefined : choice,
    cached: null,
    pending: null,
    failed: null,
  };
  return {
    issued: () => state.issued,
    get: () => current(state).then(({ token }) => token),
    session: () => current(state).then(({ token, dialect }) => ({ token, dialect })),
    dialect: () => state.lastDialect,
    info: () => (state.cached ? { ...state.cached.info, scope: [...state.cached.info.scope] } : null),
    invalidate(token) {
      if (token === undefined) state.failed = null;
      if (token === undefined || state.cached?.token === token) state.cached = null;
    },
  };
}

function current(state: TokenState): Promise<CachedToken> {
  const { now } = state.options;
  if (state.cached && now() < state.cached.renewAt) return Promise.resolve(state.cached);
  if (state.failed && now() < state.failed.until) return Promise.reject(state.failed.error);
  state.pending ??= requestOrFail(state).finally(() => {
    state.pending = null;
  });
  return state.pending;
}

/** The token endpoint's refusals become TokenErrors: no caller may read them as its resource's answer. */
async function requestOrFail(state: TokenState): Promise<CachedToken> {
  try {
    const token = await requestToken(state);
    state.failed = null;
    return token;
  } catch (error) {
    const thrown = error instanceof ServiceError ? new TokenError(error) : error;
    if (!(thrown instanceof NetworkError && thrown.kind === 'aborted')) {
      // The network may come back any moment: a shorter hold, so the offline probe notices soon.
      const hold = thrown instanceof TokenError ? state.failureHoldMs : Math.min(state.failureHoldMs, 5_000);
      state.failed = { error: thrown, until: state.options.now() + hold };
    }
    throw thrown;
  }
}

async function requestToken(state: TokenState): Promise<CachedToken> {
  const { options } = state;
  const requestedAt = options.now();
  const { form, res } = await ask(state);
  const parsed = tokenResponseSchema.safeParse(res.body);
  if (!parsed.success || (parsed.data.token_type ?? 'bearer').toLowerCase() !== 'bearer') {
    throw invalidResponse(res.status, res.requestId, 'access token');
  }
  if (state.choice === 'automatic' && form !== state.learned) {
    state.learned = form;
    options.onLearned?.(form);
  }
  const lifetimeMs = parsed.data.expires_in * 1000;
  // Counted from before the request, so the token never outlives our idea of it.
  const expiresAt = requestedAt + lifetimeMs;
  state.lastDialect = form;
  state.cached = {
    token: parsed.data.access_token,
    dialect: form,
    info: { scope: parseScope(parsed.data.scope), expiresAt },
    renewAt: expiresAt - renewalMarginMs(lifetimeMs, options.renewBeforeMs ?? 60_000),
  };
  state.issued++;
  options.log({
    level: 'info',
    msg: `Obtained an access token valid for ${parsed.data.expires_in} s`,
    requestId: res.requestId,
  });
  return state.cached;
}

async function sendIn(
  { options }: TokenState,
  form: TokenForm,
): Promise<{ form: TokenForm; res: HttpResponse }> {
  const { transport, clientId, clientSecret } = options;
  return { form, res: await transport.send(tokenRequest(transport, form, { clientId, clientSecret })) };
}

/** Automatic: the remembered form (else the real one) first, the other when the first is not there. */
async function ask(state: TokenState): Promise<{ form: TokenForm; res: HttpResponse }> {
  if (state.choice !== 'automatic') return sendIn(state, state.choice);
  const first = state.learned ?? 'real';
  try {
    return await sendIn(state, first);
  } catch (error) {
    if (!(error instanceof ServiceError && isMissingEndpoint(error.status, error.code))) throw error;
    state.options.log({
      level: 'info',
      msg: `No ${first === 'real' ? '/token' : '/oauth/v2/token'} token endpoint; trying the other form`,
    });
    try {
      return await sendIn(state, otherForm(first));
    } catch (second) {
      // Neither is there: the first answer (the form the service is expected to have) says more.
      throw second instanceof ServiceError && isMissingEndpoint(second.status, second.code) ? error : second;
    }
  }
}
