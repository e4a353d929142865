import type { CustomerStatus } from '../customer-row.ts';
import { FAULT_KINDS } from '../faults.ts';
import { TOKEN_SCOPE } from '../oauth.ts';
import { ALL_TIME, type FailureReason } from '../profile-types.ts';
import { type Link, resourceLink } from '../reply.ts';
import type { Profile } from '../types.ts';
import { urlOf } from '../urls.ts';

/** The interface document (service-interface.md, with service-facts.md): the default profile. */
export const FAILURE_DESCRIPTIONS: Record<FailureReason, string> = {
  ScanNotReadable: 'The image of the document could not be read.',
  ScanNameMismatch: 'The name on the document does not match the customer.',
  ScanDobMismatch: 'The date of birth on the document does not match the customer.',
};

export const failureReasonList = (reasons: readonly FailureReason[]) =>
  reasons.map((reason) => ({ reason, description: FAILURE_DESCRIPTIONS[reason] }));

/** A first name that is one of `names` (any case, trimmed) picks that status; anything else `otherwise`. */
export function statusByName(
  names: readonly CustomerStatus[],
  otherwise: CustomerStatus = 'verified',
): (firstName: string) => CustomerStatus {
  return (firstName) => {
    const name = firstName.trim().toLowerCase();
    return names.find((status) => status === name) ?? otherwise;
  };
}

export const interfaceProfile: Profile = {
  name: 'interface',
  tokenPath: '/oauth/v2/token',
  tokenRequest: 'any',
  tokenResponse: (accessToken, expiresIn) => ({
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: expiresIn,
    scope: TOKEN_SCOPE,
  }),
  statusOnCreation: statusByName(['retry', 'document', 'suspended']),
  statusAfterRetry: statusByName(['document', 'suspended']),
  // Every status has every link; the retry and upload links only where they apply.
  customerLinks(app, row) {
    const self = urlOf(app, `/customers/${row.id}`);
    const transfers = urlOf(app, '/transfers');
    const links: Record<string, Link> = {
      self: resourceLink(self, 'customer'),
      receive: resourceLink(transfers, 'transfer'),
      'funding-sources': resourceLink(`${self}/funding-sources`, 'funding-source'),
      transfers: resourceLink(`${self}/transfers`, 'transfer'),
      send: resourceLink(transfers, 'transfer'),
    };
    if (row.status === 'retry') links['retry-verification'] = resourceLink(self, 'customer');
    if (row.status === 'document')
      links['verify-with-document'] = resourceLink(`${self}/documents`, 'document');
    return links;
  },
  customerFields: () => ({}),
  taxpayerNumberField: 'tin',
  customerExtras: () => ({ extras: {}, errors: [] }),
  errorReply: (error) => error.toReply(),
  tooManyRequestsHeaders: { 'Retry-After': '1' },
  faultKinds: FAULT_KINDS,
  documentFailure: (reasons) => ({
    failureReason: reasons[0],
    allFailureReasons: failureReasonList(reasons),
  }),
  webhookRetriesLink: 'retries',
  webhookAccountId: false,
  webhookWindow: () => ALL_TIME,
  routes: () => [],
};
