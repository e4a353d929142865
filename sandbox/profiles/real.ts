import { fieldValidationError } from '../errors.ts';
import { FAULT_KINDS, REAL_FAULT_KINDS } from '../faults.ts';
import type { TimeWindow } from '../profile-types.ts';
import type { Profile } from '../types.ts';
import { failureReasonList, statusByName } from './interface.ts';
import { realCustomerExtras, realCustomerFields, realCustomerLinks } from './real-customers.ts';
import { realRoutes } from './real-routes.ts';

/** Today's real service (real-service.md): the `real` profile, row by row. */

/** The codes the real service spells in camelCase; the rest stay PascalCase. */
const REAL_CODES: Record<string, string> = {
  NotFound: 'notFound',
  InvalidResourceState: 'invalidResourceState',
  InvalidFileType: 'invalidFileType',
  MaxNumberOfResources: 'maximumNumberOfResources',
  FileTooLarge: 'fileTooLarge',
};

/** Events and webhook history are kept 30 days. */
export const REAL_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `startDate` and `endDate`: an ISO date or date-time. A date-only `endDate` takes in that whole
 * day (UTC); a date-time `endDate` is exclusive.
 */
function dateParam(query: URLSearchParams, name: 'startDate' | 'endDate'): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return null;
  const ms = Date.parse(DATE_ONLY.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (!Number.isFinite(ms) || !/^\d{4}-\d{2}-\d{2}/.test(raw)) {
    throw fieldValidationError([
      { path: `/${name}`, code: 'InvalidFormat', message: `${name} must be an ISO-8601 date (YYYY-MM-DD).` },
    ]);
  }
  return name === 'endDate' && DATE_ONLY.test(raw) ? ms + DAY_MS : ms;
}

function realWebhookWindow(now: number, query: URLSearchParams): TimeWindow {
  const start = dateParam(query, 'startDate');
  const end = dateParam(query, 'endDate');
  const kept = now - REAL_RETENTION_MS + 1;
  return { from: Math.max(kept, start ?? kept), to: end ?? Number.MAX_SAFE_INTEGER };
}

export const realProfile: Profile = {
  name: 'real',
  tokenPath: '/token',
  tokenRequest: 'form-basic',
  tokenResponse: (accessToken, expiresIn) => ({
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: expiresIn,
  }),
  // `kba` and `unverified` are the real profile's own magic first names; a retry can lead to `kba`.
  statusOnCreation: statusByName(['retry', 'document', 'suspended', 'kba', 'unverified']),
  statusAfterRetry: statusByName(['document', 'suspended', 'kba']),
  customerLinks: realCustomerLinks,
  customerFields: realCustomerFields,
  // `ssn`: a body without it is refused at `/ssn`; a `tin` is an unknown field there, ignored as any other.
  taxpayerNumberField: 'ssn',
  customerExtras: realCustomerExtras,
  errorReply(error) {
    const reply = error.toReply();
    const code = error.body.code;
    if (typeof code !== 'string' || !(code in REAL_CODES)) return reply;
    // An unknown customer is 403 on the real service, not 404.
    const status = error.subject === 'customer' && code === 'NotFound' ? 403 : reply.status;
    return { ...reply, status, body: { ...error.body, code: REAL_CODES[code] } };
  },
  tooManyRequestsHeaders: {},
  faultKinds: [...FAULT_KINDS, ...REAL_FAULT_KINDS],
  // One reason: no list. Several: the list leaves out the one named in `failureReason`.
  documentFailure: (reasons) =>
    reasons.length > 1
      ? { failureReason: reasons[0], allFailureReasons: failureReasonList(reasons.slice(1)) }
      : { failureReason: reasons[0] },
  webhookRetriesLink: 'retry',
  webhookAccountId: true,
  webhookWindow: realWebhookWindow,
  routes: realRoutes,
};
