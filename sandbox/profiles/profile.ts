import type { App } from '../app.ts';
import type { CustomerRow, CustomerStatus } from '../customer-row.ts';
import type { ApiError, EmbeddedError } from '../errors.ts';
import type { FaultKind } from '../faults.ts';
import type { Link, Reply } from '../reply.ts';
import type { Route } from '../router.ts';

/**
 * A behaviour profile: where the sandbox's answers differ between the interface document
 * (`interface`, the default) and today's real service (`real`, shared/spec/real-service.md).
 * Each hook is one row of that table; the handlers ask the profile instead of testing its name.
 */
export const PROFILE_NAMES = ['interface', 'real'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export type FailureReason = 'ScanNotReadable' | 'ScanNameMismatch' | 'ScanDobMismatch';

/** Fields the real service accepts beside the interface's and returns on GET. */
export interface CustomerExtras {
  phone?: string;
  correlationId?: string;
}

/** A time window on the sandbox clock: `from` inclusive, `to` exclusive. */
export interface TimeWindow {
  from: number;
  to: number;
}

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

export const ALL_TIME: TimeWindow = { from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };
