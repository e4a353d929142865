// The one vocabulary of failure: every error main meets (the service's refusals, the network, a service not set
// up, the contract's and the service's field errors) turned into the words a reviewer reads. Callers decide
// what to do about a failure; this module decides what to say, so the same cause reads the same everywhere.
// Messages never quote a URL's secret part, a request or response body, or a stack.

import { RESTART_BY_HAND } from '#contract/channels.ts';
import { claimedByWords } from '#contract/claims.ts';
import {
  CUSTOMER_FIELDS,
  type CustomerField,
  type CustomerRulesMode,
  customerFieldHint,
} from '#contract/customer-rules.ts';
import { type AppError, DeskError } from '#contract/errors.ts';
import { ASK_A_LEAD, LEAD_ONLY, type LeadAction } from '#contract/roles.ts';
import type { ConnectionTest } from '#contract/settings.ts';
import { describeError, type Logger } from '../ground/log/logger.ts';
import { JournalError } from './journal/errors.ts';
import {
  errorCodes,
  NetworkError,
  NotConfiguredError,
  RateLimitedError,
  ServiceError,
  sameCode,
  TokenError,
} from './service/index.ts';

export type ConnectionFailure = Extract<ConnectionTest, { ok: false }>;

/** Why talking to the service failed, with the reason "Test connection" shows. */
export function connectionFailure(error: unknown): ConnectionFailure {
  if (error instanceof NetworkError) return networkFailure(error);
  if (error instanceof TokenError) return tokenFailure(error);
  if (error instanceof ServiceError) return serviceFailure(error);
  return {
    ok: false,
    reason: 'unexpected',
    message: 'Something unexpected went wrong; details are in the log.',
  };
}

/**
 * Whether a failure's words send the reviewer to the log ("details are in the log"), so the log must have
 * them: one Vetted has no words for (a bug, an answer no branch expected), or the journal's own.
 */
export function isUnexpected(error: unknown): boolean {
  return !(
    error instanceof DeskError ||
    error instanceof NotConfiguredError ||
    error instanceof NetworkError ||
    error instanceof TokenError ||
    error instanceof ServiceError
  );
}

/** Where an unexpected failure is written: the desk's logger, which scrubs every line. */
export type FailureLog = Pick<Logger, 'error'>;

/**
 * Any failure as one sentence, for a screen that shows a problem beside what it could not load. One Vetted
 * has no words for is written to the log first (name and message; `doing` says what failed), as its
 * sentence promises.
 */
export function failureMessage(error: unknown, log: FailureLog, doing: string): string {
  if (isUnexpected(error)) log.error(`${doing} failed unexpectedly`, describeError(error));
  return wordsFor(error);
}

function wordsFor(error: unknown): string {
  if (error instanceof DeskError || error instanceof NotConfiguredError) return error.message;
  if (error instanceof JournalError) return JOURNAL_FAILED;
  return connectionFailure(error).message;
}

/**
 * The journal's own text names files, tables and record ids: the reviewer reads only that their records could
 * not be used, the log gets the rest.
 */
export const JOURNAL_FAILED =
  'Vetted could not read or change its records for this. Try again; if it keeps happening, restart Vetted. Details are in the log.';

/**
 * What a contract call may answer for a failure a reviewer can act on; undefined leaves it a generic internal
 * error (its details stay in the log). `unexpected` marks a fault told in words that the log must see too.
 */
export function appErrorOf(error: unknown): (AppError & { unexpected?: true }) | undefined {
  if (error instanceof JournalError)
    return { code: 'JournalFailed', message: JOURNAL_FAILED, unexpected: true };
  if (error instanceof NotConfiguredError) return { code: 'NotConfigured', message: error.message };
  if (error instanceof NetworkError) return { code: 'Offline', message: connectionFailure(error).message };
  // Not the service's answer about what was asked: Vetted could not sign in to ask at all.
  if (error instanceof TokenError) return { code: 'SignInFailed', message: connectionFailure(error).message };
  if (error instanceof ServiceError && error.status === 429) {
    return { code: 'RateLimited', message: connectionFailure(error).message };
  }
  if (error instanceof ServiceError) {
    const reference = error.requestId ? ` (request ${error.requestId})` : '';
    return {
      code: `Service.${error.code}`,
      message: `The service refused this: ${error.message}${reference}`,
    };
  }
  return undefined;
}

function networkFailure(error: NetworkError): ConnectionFailure {
  switch (error.kind) {
    case 'tls':
      return { ok: false, reason: 'tls', message: `The secure connection failed: ${tlsProblem(error)}` };
    case 'timeout':
      return { ok: false, reason: 'timeout', message: 'The service did not answer in time.' };
    case 'dns':
      return {
        ok: false,
        reason: 'unreachable',
        message: 'The service’s host name could not be found. Check the base URL.',
      };
    default:
      return {
        ok: false,
        reason: 'unreachable',
        message: 'The service could not be reached. Check the base URL and your network.',
      };
  }
}

/** What went wrong with the service's certificate, from the TLS error's code. */
function tlsProblem(error: NetworkError): string {
  const codes = errorCodes(error).join(' ');
  if (/SELF_SIGNED/.test(codes)) {
    return 'the service’s certificate is self-signed, and nothing this computer trusts vouches for it. If a proxy inspects TLS here, add its CA bundle in Settings.';
  }
  if (/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/.test(codes)) {
    return 'the service’s certificate has expired or is not valid yet (check this computer’s clock too).';
  }
  if (/ALTNAME|HOSTNAME/.test(codes)) {
    return 'the service’s certificate is for another host name than the base URL. Check the base URL.';
  }
  if (/UNABLE_TO_(GET_ISSUER|VERIFY_LEAF)|CERT_UNTRUSTED|CERT_CHAIN/.test(codes)) {
    return 'the service’s certificate was issued by an authority this computer does not trust. If a proxy inspects TLS here, add its CA bundle in Settings.';
  }
  return 'the service’s TLS certificate was not accepted.';
}

/** "next try at 12:05", in this computer's local time. */
export function rateLimitedUntilText(retryAt: number): string {
  const at = new Date(retryAt);
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return `Rate limited by the service — next try at ${hhmm}`;
}

/** The service's account-level refusals (any case), the same whether the token or a call met them. */
const ACCOUNT_REFUSALS: Record<string, string> = {
  invalidaccountstatus:
    'The service account is not active, so the service refuses its calls (InvalidAccountStatus). Ask your account administrator or the service’s support.',
  invalidapplicationstatus:
    'The application these credentials belong to is not active on the service (InvalidApplicationStatus). Check it in the service’s dashboard.',
  invalidscopes:
    'These credentials lack the permissions (scopes) Vetted needs (InvalidScopes). Ask for an application with customer and webhook access.',
};

/** Getting a token failed: never about a customer, always about signing in. */
function tokenFailure(error: TokenError): ConnectionFailure {
  const { answer } = error;
  if (answer.status === 404 || answer.status === 405) {
    return {
      ok: false,
      reason: 'unreachable',
      message:
        'No token endpoint answers at this base URL. Check the base URL, and the “Token endpoint” choice in Settings.',
    };
  }
  if (answer.is('InvalidResponse')) {
    return { ok: false, reason: 'unexpected', message: 'The service’s token answer could not be read.' };
  }
  const failure = serviceFailure(answer);
  return failure.reason === 'unexpected'
    ? { ...failure, message: `The service did not issue an access token (${answer.status} ${answer.code}).` }
    : failure;
}

function serviceFailure(error: ServiceError): ConnectionFailure {
  const account = ACCOUNT_REFUSALS[error.code.toLowerCase()];
  if (account) return { ok: false, reason: 'bad-credentials', message: account };
  if (error.is('invalid_client') || error.is('InvalidCredentials') || error.status === 401) {
    return {
      ok: false,
      reason: 'bad-credentials',
      message: 'The service refused the client ID or the client secret.',
    };
  }
  if (error.is('InvalidVersion') || error.status === 406) {
    return {
      ok: false,
      reason: 'media-type',
      message: 'The service does not accept this API version (application/vnd.service.v1.hal+json).',
    };
  }
  if (error.status === 429) {
    const retryAt = error instanceof RateLimitedError ? error.retryAt : undefined;
    return {
      ok: false,
      reason: 'rate-limited',
      message: retryAt
        ? `${rateLimitedUntilText(retryAt)}.`
        : 'The service is rate limiting Vetted; it tries again in a few minutes.',
    };
  }
  if (error.is('RequestTimeout')) {
    return {
      ok: false,
      reason: 'server',
      message:
        'The service took too long on its side and gave up (500 RequestTimeout). Try again in a moment.',
    };
  }
  if (error.status >= 500) {
    return {
      ok: false,
      reason: 'server',
      message: `The service had an internal error (HTTP ${error.status}).`,
    };
  }
  if (error.status === 404) {
    return { ok: false, reason: 'unexpected', message: 'The service has no such resource (404).' };
  }
  return { ok: false, reason: 'unexpected', message: `The service answered ${error.status} ${error.code}.` };
}

// ---- Refusals: what Vetted will not do for this reviewer now, and why ---------------------------------

/** Why an action is not allowed, for errors and for the reasons a screen shows beside a disabled button. */
export const REFUSED = {
  unknownCustomer: 'Vetted does not know this customer. Add it by its id first.',
  customerGone: 'The service no longer knows this customer.',
  noSuchDraft: 'Vetted has no such draft; it may have been discarded.',
  retryUsed: 'The one retry for this customer has been used.',
  retryWaits:
    'This customer’s retry waits for a lead’s approval (four eyes): see the case’s Four eyes panel.',
  retryNotAllowed: 'Only a customer in “retry” can be resubmitted.',
  fixFieldsFirst: 'Correct the highlighted fields first.',
  restartByHand: `Vetted runs in browser mode here and cannot restart itself. ${RESTART_BY_HAND}`,
  teamNotOpen:
    'This desk has joined a team but is not working on the team store yet (restart Vetted, or see ' +
    'Settings → Team for what stops it). The draft stays here until then.',
} as const;

export const refusal = {
  unknownCustomer: () => new DeskError('NotFound', REFUSED.unknownCustomer),
  customerGone: () => new DeskError('NotFound', REFUSED.customerGone),
  noSuchDraft: () => new DeskError('NotFound', REFUSED.noSuchDraft),
  retryUsed: () => new DeskError('RetryUsed', REFUSED.retryUsed),
  restartByHand: () => new DeskError('RestartByHand', REFUSED.restartByHand),
  teamNotOpen: () => new DeskError('TeamNotOpen', REFUSED.teamNotOpen),
  /** With the reason the customer's status or the service's links give (contract/statuses.ts). */
  retryNotAllowed: (reason: string = REFUSED.retryNotAllowed) => new DeskError('RetryNotAllowed', reason),
  /** The service does not offer this action to this customer (its links, contract/statuses.ts). */
  notOffered: (reason: string) => new DeskError('ActionNotOffered', reason),
  /** The contract's rules refused the form: each field says how to fix it. */
  invalid: (code: string, errors: readonly { path: string; hint: string }[]) =>
    new DeskError(code, REFUSED.fixFieldsFirst, errorFields(errors)),
  // Team mode's claims and roles (main/features/claims/).
  claimedBy: (holder: string) =>
    new DeskError('ClaimedByOther', `${claimedByWords(holder)} Ask them, or a lead, to hand it to you.`),
  notYourClaim: (holder: string | null) =>
    new DeskError('NotYourClaim', holder ? `${holder} has this case, not you.` : 'Nobody holds this case.'),
  leadOnly: (action: LeadAction) => new DeskError('LeadOnly', `${LEAD_ONLY[action]} ${ASK_A_LEAD}`),
  noSuchReviewer: (name: string) =>
    new DeskError('NoSuchReviewer', `There is no reviewer “${name}” in this team.`),
  soloDesk: (what: string) =>
    new DeskError(
      'SoloDesk',
      `This desk works alone: ${what}. Joining a team (Settings → Team) changes that.`,
    ),
};

// ---- Field errors --------------------------------------------------------------------------------

const DUPLICATE_HINT =
  'A customer with this e-mail already exists: link this draft to it, or change the e-mail.';

/** Contract field errors as `AppError.fields`: JSON pointer → how to fix it. */
export function errorFields(errors: readonly { path: string; hint: string }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of errors) fields[error.path] ??= error.hint;
  return fields;
}

/** The service's field errors on the form's fields (JSON pointer → how to fix it); unknown paths go to "/". */
export function serviceFieldErrors(
  error: ServiceError,
  mode: CustomerRulesMode,
): { fields: Record<string, string>; duplicateOf: string | null } {
  const fields: Record<string, string> = {};
  let duplicateOf: string | null = null;
  for (const field of error.fields) {
    const name = field.path.replace(/^\//, '');
    const known = (CUSTOMER_FIELDS as readonly string[]).includes(name);
    const path = known ? `/${name}` : '/';
    if (sameCode(field.code, 'Duplicate')) {
      duplicateOf = (field.aboutUrl && lastPathSegment(field.aboutUrl)) || duplicateOf;
      fields[path] = DUPLICATE_HINT;
      continue;
    }
    // The service's message names the rule ("Email invalid."); the hint says how to fix it.
    const hint = known ? customerFieldHint(name as CustomerField, mode) : '';
    fields[path] ??= [field.message.slice(0, 200), hint].filter(Boolean).join(' ');
  }
  return { fields, duplicateOf };
}

/** The id a link ends with, decoded as the path carried it (ids are percent-encoded there). */
function lastPathSegment(url: string): string | null {
  try {
    const segment = new URL(url).pathname.split('/').filter(Boolean).at(-1);
    return segment === undefined ? null : decodeURIComponent(segment);
  } catch {
    return null;
  }
}

// ---- Sending a draft -----------------------------------------------------------------------------

const BY_ITSELF = 'Vetted will send it again by itself.';

/** The words on a draft whose send failed, by what the outbox does next. */
export const sendFailure = {
  /** Offline, not set up, or a passing refusal: the outbox sends it again. */
  willResend: (error: unknown) =>
    // The outbox's one banner says the service cannot be reached; the draft says only that it waits.
    error instanceof NetworkError
      ? `Queued until the service answers. ${BY_ITSELF}`
      : `${wordsFor(error)} ${BY_ITSELF}`,
  stillWorking: `The service is still working on an earlier send of this draft. ${BY_ITSELF}`,
  credentialsRefused: (error: ServiceError) =>
    `${connectionFailure(error).message} Correct them in Settings: the draft stays queued.`,
  unexpected: 'Something unexpected went wrong while sending this draft; details are in the log.',
  rejected(fields: Record<string, string>, duplicateOf: string | null): string {
    const names = Object.keys(fields).map((path) => path.slice(1) || 'the form');
    if (duplicateOf && names.length === 1) return DUPLICATE_HINT;
    const count = names.length === 1 ? 'one field' : `${names.length} fields`;
    return `The service rejected ${count}: ${names.join(', ')}. Correct the form and submit it again.`;
  },
  /** A refusal a person must look at before the draft is sent again. */
  needsAttention(error: ServiceError, keyReused: boolean): string {
    if (keyReused) {
      return 'The service has seen this draft’s Idempotency-Key with other content. Try again to send it as it was first sent.';
    }
    if (error.is('InvalidResponse')) {
      return 'The service took the draft but its answer could not be read. Try again: the same key is sent, so it is not created twice.';
    }
    if (error.status === 403) return 'The service does not allow Vetted to create customers (403 Forbidden).';
    if (error.status === 406) return connectionFailure(error).message;
    // The service's own message may quote what was sent: only its status and code are shown.
    return `The service refused this draft (${error.status} ${error.code}). Try again once the cause is fixed.`;
  },
};

// ---- The one-time verification retry --------------------------------------------------------------

export const oneTimeRetryFailure = {
  rejected: (fields: Record<string, string>) =>
    new DeskError('RetryRejected', 'The service rejected some fields; the retry was not used.', fields),
  refused: () => new DeskError('RetryRefused', 'The service no longer accepts a retry for this customer.'),
  unknown: () =>
    new DeskError(
      'RetryUnknown',
      'Vetted could not tell whether the service received the retry. It will not be sent again: refresh the customer to see its status.',
    ),
};
