import { readCustomerExtras } from '../customer-extras.ts';
import type { CustomerRow, CustomerStatus } from '../customer-row.ts';
import { type EmbeddedError, embeddedError } from '../errors.ts';
import type { CustomerExtras } from '../profile-types.ts';
import { type Link, resourceLink } from '../reply.ts';
import type { App } from '../types.ts';
import { urlOf } from '../urls.ts';

/** Customers as today's real service shows them: links that follow the status, the address on GET. */
type LinkSet = (self: string, transfers: string) => Record<string, Link>;

const moneyLinks: LinkSet = (_self, transfers) => ({
  send: resourceLink(transfers, 'transfer'),
  receive: resourceLink(transfers, 'transfer'),
});
const receiveOnly = (transfers: string) => ({ receive: resourceLink(transfers, 'transfer') });

/** What each status adds to `self`, `funding-sources` and `transfers` (real-service.md, customer `_links`). */
const LINKS_BY_STATUS: Record<CustomerStatus, LinkSet> = {
  verified: moneyLinks,
  unverified: moneyLinks,
  retry: (self, transfers) => ({
    ...receiveOnly(transfers),
    'retry-verification': resourceLink(self, 'customer'),
  }),
  document: (self, transfers) => ({
    ...receiveOnly(transfers),
    'verify-with-document': resourceLink(`${self}/documents`, 'document'),
    'document-form': resourceLink(`${self}/documents`, 'document'),
  }),
  kba: (self, transfers) => ({
    ...receiveOnly(transfers),
    'verify-with-kba': resourceLink(`${self}/kba`, 'kba'),
  }),
  suspended: () => ({}),
  deactivated: () => ({}),
};

export function realCustomerLinks(app: App, row: CustomerRow): Record<string, Link> {
  const self = urlOf(app, `/customers/${row.id}`);
  return {
    self: resourceLink(self, 'customer'),
    'funding-sources': resourceLink(`${self}/funding-sources`, 'funding-source'),
    transfers: resourceLink(`${self}/transfers`, 'transfer'),
    ...LINKS_BY_STATUS[row.status](self, urlOf(app, '/transfers')),
  };
}

/** The address (`address2` when set) and the extras the customer was created with; never the date of birth or tin. */
export function realCustomerFields(app: App, row: CustomerRow): Record<string, unknown> {
  const open = (value: unknown): string | undefined =>
    typeof value === 'string' ? app.secrets.open(value) : undefined;
  const address2 = open(row.address2);
  return {
    address1: open(row.address1),
    ...(address2 !== undefined ? { address2 } : {}),
    city: open(row.city),
    state: open(row.state),
    postalCode: open(row.postal_code),
    ...readCustomerExtras(app, row.id),
  };
}

const PHONE = /^\d{10}$/;
const MAX_CORRELATION_ID = 255;

/** `phone` (10 digits) and `correlationId` (up to 255 characters), both optional. */
export function realCustomerExtras(input: Record<string, unknown>): {
  extras: CustomerExtras;
  errors: EmbeddedError[];
} {
  const extras: CustomerExtras = {};
  const errors: EmbeddedError[] = [];
  const { phone, correlationId } = input;
  if (phone !== undefined && phone !== '') {
    if (typeof phone === 'string' && PHONE.test(phone)) extras.phone = phone;
    else errors.push(embeddedError({ path: '/phone', code: 'Invalid', message: 'Phone must be 10 digits.' }));
  }
  if (correlationId !== undefined && correlationId !== '') {
    if (typeof correlationId === 'string' && correlationId.length <= MAX_CORRELATION_ID)
      extras.correlationId = correlationId;
    else
      errors.push(
        embeddedError({
          path: '/correlationId',
          code: 'Invalid',
          message: `CorrelationId must be text of at most ${MAX_CORRELATION_ID} characters.`,
        }),
      );
  }
  return { extras, errors };
}
