import { STATUS_CODES } from 'node:http';
import { z } from 'zod';

/** One entry of a validation error: `path` is a JSON pointer such as `/email`. */
export interface FieldError {
  path: string;
  code: string;
  message: string;
  /** For a `Duplicate`, the resource that already exists. */
  aboutUrl?: string;
}

export interface ServiceErrorInit {
  status: number;
  code: string;
  message: string;
  fields?: FieldError[];
  aboutUrl?: string;
  requestId?: string;
  retryAfterMs?: number;
}

/** The real service's other spelling of a code the interface document names. */
const CODE_ALIASES: Record<string, string> = { maximumnumberofresources: 'maxnumberofresources' };
const canonical = (code: string) => {
  const lower = code.toLowerCase();
  return CODE_ALIASES[lower] ?? lower;
};

/** The real service mixes `NotFound` and `notFound` (and spells some codes out), so codes never compare exactly. */
export function sameCode(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}

/** No service is set up yet: nothing was sent. */
export class NotConfiguredError extends Error {
  override readonly name = 'NotConfiguredError';
  constructor() {
    super('No service is set up: enter the base URL, client ID and client secret in Settings.');
  }
}

/** The service answered, but not with success. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly status: number;
  /** As sent by the service; compare with `is()`. */
  readonly code: string;
  readonly fields: readonly FieldError[];
  readonly aboutUrl?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  /** Whether sending the same request again later (with the same Idempotency-Key) may succeed. */
  readonly retryable: boolean;

  constructor(init: ServiceErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? [];
    this.aboutUrl = init.aboutUrl;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    // 409 Conflict is an Idempotency-Key whose first request is still running: try again later.
    this.retryable = init.status >= 500 || init.status === 429 || sameCode(init.code, 'Conflict');
  }

  is(code: string): boolean {
    return sameCode(this.code, code);
  }
}

/**
 * Getting a token failed with an answer from the token endpoint. Deliberately not a ServiceError:
 * the endpoint's 404 or 403 says nothing about the resource the caller wanted, so no caller may take
 * it for the resource's own answer (a customer "gone" because `/token` is missing).
 */
export class TokenError extends Error {
  override readonly name = 'TokenError';
  /** The token endpoint's answer. */
  readonly answer: ServiceError;
  /** Nothing reached the resource: asking again later (once the credentials or the endpoint are fixed) is safe. */
  readonly retryable = true;

  constructor(answer: ServiceError) {
    super(`The service did not issue an access token: ${answer.message}`, { cause: answer });
    this.answer = answer;
  }

  get status(): number {
    return this.answer.status;
  }

  get code(): string {
    return this.answer.code;
  }

  is(code: string): boolean {
    return this.answer.is(code);
  }
}

/**
 * The service's own answer that the resource at this URL does not exist: 404, or 403 `notFound`
 * (how the real service answers for a customer outside the account). Never a token failure.
 */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof ServiceError && (error.status === 404 || (error.status === 403 && error.is('NotFound')))
  );
}

export type NetworkErrorKind = 'timeout' | 'reset' | 'refused' | 'dns' | 'tls' | 'aborted' | 'other';

const networkMessages: Record<NetworkErrorKind, string> = {
  timeout: 'The service did not answer in time.',
  reset: 'The connection to the service was interrupted.',
  refused: 'The service refused the connection; it may not be running.',
  dns: 'The name of the service could not be resolved.',
  tls: 'A secure connection to the service could not be established.',
  aborted: 'The request to the service was cancelled.',
  other: 'The service could not be reached.',
};

/** The service did not answer: nothing is known about whether the request took effect. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly kind: NetworkErrorKind;
  readonly retryable: boolean;

  constructor(kind: NetworkErrorKind, options?: { cause?: unknown; message?: string }) {
    super(options?.message ?? networkMessages[kind], { cause: options?.cause });
    this.kind = kind;
    this.retryable = kind !== 'aborted';
  }
}

// ---- Network failures -------------------------------------------------------------------------

const kindByCode: Record<string, NetworkErrorKind> = {
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  UND_ERR_SOCKET: 'reset',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'reset',
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  UND_ERR_ABORT: 'aborted',
  UND_ERR_ABORTED: 'aborted',
  UND_ERR_DESTROYED: 'aborted',
  UND_ERR_CLOSED: 'aborted',
};

// Mistakes in how the request was built: a bug to surface, not a network condition to retry.
const programmingErrorCodes = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_URL',
]);

/** The `code`s along an error's cause chain (undici wraps the socket's error). */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

function kindOfCode(code: string): NetworkErrorKind | undefined {
  if (code in kindByCode) return kindByCode[code];
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code)) return 'tls';
  return undefined;
}

/**
 * What a thrown transport error means. `aborted` is decided by our own signal, because undici
 * rethrows whatever reason the signal carries. Returns undefined for programming errors.
 */
export function classifyNetworkError(error: unknown, aborted: boolean): NetworkError | undefined {
  if (error instanceof NetworkError) return error;
  if (aborted) return new NetworkError('aborted', { cause: error });
  const codes = errorCodes(error);
  if (codes.some((code) => programmingErrorCodes.has(code))) return undefined;
  const kind = codes.map(kindOfCode).find((k) => k !== undefined);
  if (kind) return new NetworkError(kind, { cause: error });
  if (error instanceof Error && error.name === 'AbortError')
    return new NetworkError('aborted', { cause: error });
  return new NetworkError('other', { cause: error });
}

// ---- Error bodies -----------------------------------------------------------------------------

// Every field is optional and falls back on a wrong type: an error body must never fail to map.
const optionalString = z.string().optional().catch(undefined);
const aboutLinks = z
  .looseObject({ about: z.looseObject({ href: z.string() }).optional().catch(undefined) })
  .optional()
  .catch(undefined);

const fieldErrorBody = z.looseObject({
  code: optionalString,
  message: optionalString,
  path: optionalString,
  _links: aboutLinks,
});

const errorBody = z.looseObject({
  code: optionalString,
  message: optionalString,
  // OAuth style, from the token endpoint.
  error: optionalString,
  error_description: optionalString,
  _links: aboutLinks,
  _embedded: z
    .looseObject({ errors: z.array(z.unknown()).optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

const oauthMessages: Record<string, string> = {
  invalid_client: 'The service rejected the client id or client secret.',
  invalid_request: 'The service rejected the token request as malformed.',
  unsupported_grant_type: 'The service does not support the client credentials grant.',
  invalid_grant: 'The service rejected the token grant.',
  unauthorized_client: 'This client is not allowed to use the client credentials grant.',
};

/** `Not Found` → `NotFound`: a code for bodies that carry none (proxies, empty answers). */
export function codeForStatus(status: number): string {
  const reason = STATUS_CODES[status];
  return reason
    ? reason.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => c?.toUpperCase() ?? '')
    : `Http${status}`;
}

function genericMessage(status: number): string {
  const reason = STATUS_CODES[status];
  return `The service answered ${status}${reason ? ` ${reason}` : ''}.`;
}

function fieldErrors(raw: unknown[] | undefined): FieldError[] {
  const fields: FieldError[] = [];
  for (const item of raw ?? []) {
    const parsed = fieldErrorBody.safeParse(item);
    if (!parsed.success) continue;
    const { code, message, path, _links } = parsed.data;
    const field: FieldError = { path: path ?? '', code: code ?? 'Invalid', message: message ?? '' };
    if (_links?.about) field.aboutUrl = _links.about.href;
    fields.push(field);
  }
  return fields;
}

export interface ErrorResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
  requestId?: string;
  retryAfterMs?: number;
}

/** Maps every error shape the service sends (and anything else) to one ServiceError. */
export function errorFromResponse({ status, body, requestId, retryAfterMs }: ErrorResponse): ServiceError {
  const parsed = errorBody.safeParse(body);
  const data: z.infer<typeof errorBody> = parsed.success ? parsed.data : {};
  const code = data.code ?? data.error ?? codeForStatus(status);
  const fields = fieldErrors(data._embedded?.errors);
  const message =
    data.message ??
    data.error_description ??
    (data.error ? oauthMessages[data.error] : undefined) ??
    genericMessage(status);
  const aboutUrl = data._links?.about?.href ?? fields.find((f) => f.aboutUrl)?.aboutUrl;
  return new ServiceError({ status, code, message, fields, aboutUrl, requestId, retryAfterMs });
}

/** A success status whose body or headers are not what the interface promises. */
export function invalidResponse(status: number, requestId: string | undefined, what: string): ServiceError {
  return new ServiceError({
    status,
    code: 'InvalidResponse',
    message: `The service sent a response that could not be read (${what}).`,
    requestId,
  });
}
