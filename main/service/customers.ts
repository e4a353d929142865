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
  /** The last four digits on creation. */
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
      return createdResource(await api({ method: 'POST', path: '/customers', json: input, ...opts }));
    },
    get,
    async retry(id, input, opts = {}) {
      const res = await api({ method: 'POST', path: resourcePath('customers', id), json: input, ...opts });
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
