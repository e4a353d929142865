import {
  type Api,
  createdResource,
  type ResourceRef,
  readAs,
  resourcePath,
  type WriteOptions,
  withQuery,
} from './api.ts';
import { ServiceError } from './errors.ts';
import { type Customer, customerPageSchema, customerSchema, type Link } from './hal.ts';
import type { ServiceDialect } from './token-forms.ts';

/** The creation fields of the interface document (2.1). */
export interface CustomerInput {
  firstName: string;
  lastName: string;
  email: string;
  /** `personal` for a verified personal customer. */
  type: string;
  address1: string;
  address2?: string;
  city: string;
  state: string;
  postalCode: string;
  /** `YYYY-MM-DD` */
  dateOfBirth: string;
  /** The last four digits on creation. Today's real service calls it `ssn`: see `customerBodyIn`. */
  tin: string;
  ipAddress?: string;
}

/** All creation fields again, corrected, with the full `tin` (`NNN-NN-NNNN`). */
export type CustomerRetryInput = CustomerInput;

export interface CustomerQuery {
  limit?: number;
  offset?: number;
  /** Fuzzy, over names and e-mail. */
  search?: string;
  /** Exact. */
  email?: string;
  status?: string[];
}

export interface CustomerPage {
  customers: Customer[];
  total: number;
  /** `self`, `first`, `last`, `next`, `prev` as the service gives them. */
  links: Record<string, Link>;
}

export interface CustomersApi {
  create(input: CustomerInput, opts?: WriteOptions): Promise<{ url: string; id: string }>;
  get(ref: ResourceRef): Promise<Customer>;
  retry(id: string, input: CustomerRetryInput, opts?: WriteOptions): Promise<Customer>;
  /** The list is absent from the interface document: a service without it gives `unsupported`. */
  list(q: CustomerQuery): Promise<CustomerPage | { unsupported: true }>;
}

/**
 * The customer body in the connected service's dialect. Vetted keeps the interface document's `tin`
 * wherever it stores a form (drafts, journal rows, the team outbox, four eyes' sealed requests, history
 * brought into a team), so whatever was stored before today's service was supported is sent right
 * after; only here, at the wire, is the number renamed `ssn` for today's real service, whose schemas
 * require `ssn` and do not define `tin` (real-service.md, "taxpayer number field").
 */
export function customerBodyIn(dialect: ServiceDialect, input: CustomerInput): Record<string, unknown> {
  if (dialect === 'document') return { ...input };
  const { tin, ...rest } = input;
  return { ...rest, ssn: tin };
}

/** The way back: today's service's errors at `/ssn` are the form's `/tin`, so the reviewer sees them there. */
function onStoredNames(error: unknown): unknown {
  if (!(error instanceof ServiceError) || !error.fields.some((field) => field.path === '/ssn')) return error;
  return new ServiceError({
    status: error.status,
    code: error.code,
    message: error.message,
    fields: error.fields.map((field) => (field.path === '/ssn' ? { ...field, path: '/tin' } : field)),
    aboutUrl: error.aboutUrl,
    requestId: error.requestId,
    retryAfterMs: error.retryAfterMs,
  });
}

/** A create or retry: the body written once the token says which service answers. */
function sendCustomer(api: Api, path: string, input: CustomerInput, opts: WriteOptions) {
  return api({ method: 'POST', path, jsonIn: (dialect) => customerBodyIn(dialect, input), ...opts }).catch(
    (error: unknown) => {
      throw onStoredNames(error);
    },
  );
}

export function customersApi(api: Api): CustomersApi {
  async function get(ref: ResourceRef): Promise<Customer> {
    return readAs(
      customerSchema,
      await api({ method: 'GET', path: resourcePath('customers', ref) }),
      'customer',
    );
  }

  return {
    async create(input, opts = {}) {
      return createdResource(await sendCustomer(api, '/customers', input, opts));
    },
    get,
    async retry(id, input, opts = {}) {
      const res = await sendCustomer(api, resourcePath('customers', id), input, opts);
      // The interface leaves this answer "not shown": without a body, read the customer back.
      return res.body === undefined && !res.unreadable ? get(id) : readAs(customerSchema, res, 'customer');
    },
    async list(q) {
      const { limit, offset, search, email, status } = q;
      const path = withQuery('/customers', { limit, offset, search, email, status });
      try {
        const page = readAs(customerPageSchema, await api({ method: 'GET', path }), 'customer list');
        const customers = page._embedded.customers;
        return { customers, total: page.total ?? customers.length, links: page._links };
      } catch (error) {
        if (error instanceof ServiceError && (error.status === 404 || error.status === 405)) {
          return { unsupported: true };
        }
        throw error;
      }
    },
  };
}
