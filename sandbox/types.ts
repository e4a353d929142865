import type { IncomingHttpHeaders } from 'node:http';
import type { Clock, Scheduler } from './clock.ts';
import type { CustomerRow, CustomerStatus } from './customer-row.ts';
import type { ApiError, EmbeddedError } from './errors.ts';
import type { FaultKind, Faults } from './faults.ts';
import type { FormPart } from './multipart.ts';
import type { CustomerExtras, FailureReason, ProfileName, TimeWindow } from './profile-types.ts';
import type { Link, Reply } from './reply.ts';
import type { SandboxSecrets } from './secrets.ts';
import type { Stats } from './stats.ts';
import type { Store } from './store.ts';

/*
 * The shapes a running sandbox is made of. They refer to each other (an app has a profile, a
 * profile adds routes, a route's handler is given the app), so they live in one module at the
 * bottom that imports no handler and no profile: everything else imports them, and they import
 * only types of the leaf modules.
 */

/** What every handler and background job of one running sandbox shares. */
export interface App {
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  /** `http://127.0.0.1:<port>`, known once the server listens. */
  baseUrl: string;
  /** The application's own account, linked from every event. */
  accountId: string;
  clientId: string;
  clientSecret: string;
  /** Seals secrets at rest in the store. */
  secrets: SandboxSecrets;
  reviewDelayMs: number;
  tokenTtlSeconds: number;
  deliveryTimeoutMs: number;
  faults: Faults;
  /** The interface document's behaviour, or today's real service's. */
  profile: Profile;
  stats: Stats;
  /** Problems the sandbox meets on its own (a failed background job); never secrets. */
  log(line: string): void;
  /** One line per request, when asked for. */
  requestLog: ((line: string) => void) | null;
  /** Aborted when the sandbox closes: pending waits end, in-flight work is dropped. */
  closing: AbortSignal;
}

/**
 * - `api`: the service's API: versioned Accept and a bearer token.
 * - `token`: the OAuth token endpoint: no token, OAuth-style errors.
 * - `control`: the sandbox's own `/sandbox/*` routes: a bearer token, any Accept, never faulted.
 */
export type RouteKind = 'api' | 'token' | 'control';

/**
 * - `none`: any body is read and ignored.
 * - `json`: a JSON object in `ctx.json` (415 for another media type, 400 when broken, 413 when huge).
 * - `multipart`: multipart/form-data parts in `ctx.parts`.
 * - `raw`: bytes in `ctx.raw` for the handler to interpret (the token endpoint).
 */
export type BodyMode = 'none' | 'json' | 'multipart' | 'raw';

export interface RequestContext {
  app: App;
  requestId: string;
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  json: unknown;
  parts: FormPart[];
  raw: Buffer;
  /** Only for `raw` bodies, which the handler rejects itself when too long. */
  rawTooLarge: boolean;
}

export interface Route {
  method: string;
  /** Path with `{name}` placeholders, e.g. `/customers/{id}`. */
  pattern: string;
  kind?: RouteKind;
  body?: BodyMode;
  /** Largest body kept, in bytes; default 1 MiB. */
  bodyLimit?: number;
  handle(ctx: RequestContext): Reply | Promise<Reply>;
}

/**
 * A behaviour profile: where the sandbox's answers differ between the interface document
 * (`interface`, the default) and today's real service (`real`, shared/spec/real-service.md).
 * Each hook is one row of that table; the handlers ask the profile instead of testing its name.
 */
export interface Profile {
  readonly name: ProfileName;
  /** Where tokens are issued; the other profile's token path answers 404. */
  readonly tokenPath: string;
  /** `any`: JSON or form, credentials in the body or Basic; `form-basic`: only the form with Basic. */
  readonly tokenRequest: 'any' | 'form-basic';
  tokenResponse(accessToken: string, expiresIn: number): Record<string, unknown>;
  /** The first name picks the outcome of verification, on creation and on the one retry. */
  statusOnCreation(firstName: string): CustomerStatus;
  statusAfterRetry(firstName: string): CustomerStatus;
  /** `_links` of a customer, from its status. */
  customerLinks(app: App, row: CustomerRow): Record<string, Link>;
  /** Fields a GET customer carries beyond id, names, e-mail, type, status and created. */
  customerFields(app: App, row: CustomerRow): Record<string, unknown>;
  /**
   * The name of the taxpayer number in a create or retry body: the interface document's `tin`, or
   * today's real service's `ssn` (its schemas require `ssn` and do not define `tin`).
   */
  readonly taxpayerNumberField: 'tin' | 'ssn';
  /** Extra fields of a create or retry body, or the errors they have. */
  customerExtras(input: Record<string, unknown>): { extras: CustomerExtras; errors: EmbeddedError[] };
  /** How an error is put on the wire (code spelling, status of an unknown customer). */
  errorReply(error: ApiError): Reply;
  /** Headers of an injected 429. */
  readonly tooManyRequestsHeaders: Record<string, string>;
  /** Fault kinds the controls may inject. */
  readonly faultKinds: readonly FaultKind[];
  /** `failureReason` / `allFailureReasons` of a rejected document. */
  documentFailure(reasons: readonly FailureReason[]): Record<string, unknown>;
  /** The name of a webhook's link to its retries, and whether it carries `accountId`. */
  readonly webhookRetriesLink: 'retries' | 'retry';
  readonly webhookAccountId: boolean;
  /** Which webhooks of a subscription a list (or a lookup) sees, given its query. */
  webhookWindow(now: number, query: URLSearchParams): TimeWindow;
  /** Routes only this profile has. */
  routes(): Route[];
}
