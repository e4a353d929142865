import { randomUUID } from 'node:crypto';
import {
  CUSTOMER_FIELDS,
  type CustomerInput,
  validateCustomerCreate,
  validateCustomerRetry,
} from '#contract/customer-rules.ts';
import { isoTime } from './clock.ts';
import { saveCustomerExtras } from './customer-extras.ts';
import type { CustomerRow, CustomerStatus } from './customer-row.ts';
import {
  customerNotFound,
  type EmbeddedError,
  embeddedError,
  invalidResourceState,
  validationError,
} from './errors.ts';
import type { Topic } from './event-row.ts';
import { recordEvent } from './events.ts';
import { pageLinks, pageOf } from './pagination.ts';
import { createdReply, halReply, type Reply, resourceLink } from './reply.ts';
import type { Store } from './store.ts';
import type { App, RequestContext, Route } from './types.ts';
import { urlOf } from './urls.ts';

/** Personal customers (service-facts.md §4): create, read, the one retry, and the list. */

/** The event that says a customer entered a status; an unverified customer has only `customer_created`. */
const ENTERED_STATUS_TOPIC: Record<CustomerStatus, Topic | null> = {
  verified: 'customer_verified',
  retry: 'customer_reverification_needed',
  document: 'customer_verification_document_needed',
  suspended: 'customer_suspended',
  unverified: null,
  kba: 'customer_kba_verification_needed',
  deactivated: 'customer_deactivated',
};

function recordStatusEvent(app: App, customerId: string, status: CustomerStatus): void {
  const topic = ENTERED_STATUS_TOPIC[status];
  if (topic) recordEvent(app, { topic, customerId });
}

export function findCustomer(store: Store, id: string): CustomerRow | undefined {
  return store.get<CustomerRow>('SELECT * FROM customers WHERE id = ?', id);
}

export function requireCustomer(store: Store, id: string): CustomerRow {
  const customer = findCustomer(store, id);
  if (!customer) throw customerNotFound();
  return customer;
}

/** Moves a customer to a status and emits the event saying so; call inside a transaction. */
export function enterStatus(app: App, customerId: string, status: CustomerStatus): void {
  app.store.run('UPDATE customers SET status = ? WHERE id = ?', status, customerId);
  recordStatusEvent(app, customerId, status);
}

/**
 * What the sandbox holds for a customer, opened: what it last received (on creation or on the
 * retry), for `GET /sandbox/customers/{id}` — tests and training check what a client really sent.
 * The SSN digits are left out even here.
 */
export function receivedFields(app: App, row: CustomerRow): Record<string, unknown> {
  const open = (value: unknown) => (typeof value === 'string' ? app.secrets.open(value) : null);
  return {
    id: row.id,
    status: row.status,
    retried: row.retried === 1,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    type: row.type,
    address1: open(row.address1),
    address2: open(row.address2),
    city: open(row.city),
    state: open(row.state),
    postalCode: open(row.postal_code),
    dateOfBirth: open(row.date_of_birth),
    ipAddress: open(row.ip_address),
  };
}

/** Date of birth, tin and IP address are never returned; the address only where the profile says. */
export function customerResource(app: App, row: CustomerRow): Record<string, unknown> {
  return {
    _links: app.profile.customerLinks(app, row),
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    type: row.type,
    status: row.status,
    created: isoTime(row.created_ms),
    ...app.profile.customerFields(app, row),
  };
}

const emailKey = (email: string): string => email.trim().toLowerCase();

/** The rules of contract/customer-rules.ts plus the one they cannot know: the e-mail must be unused. */
function customerErrors(app: App, input: unknown, mode: 'create' | 'retry', self?: string): EmbeddedError[] {
  const options = { today: new Date(app.clock.now()) };
  const ruleErrors =
    mode === 'create' ? validateCustomerCreate(input, options) : validateCustomerRetry(input, options);
  const errors = ruleErrors.map((error) => embeddedError(error));
  if (typeof input === 'object' && input !== null && !Array.isArray(input))
    errors.push(...app.profile.customerExtras(input as Record<string, unknown>).errors);
  const email = (input as CustomerInput | null)?.email;
  if (typeof email !== 'string' || errors.some((error) => error.path === '/email')) return errors;
  const holder = app.store.get<{ id: string }>(
    'SELECT id FROM customers WHERE email_key = ?',
    emailKey(email),
  );
  if (holder && holder.id !== self) {
    const duplicate = embeddedError(
      { path: '/email', code: 'Duplicate', message: 'A customer with the specified email already exists.' },
      { about: resourceLink(urlOf(app, `/customers/${holder.id}`), 'customer') },
    );
    errors.push(duplicate);
  }
  errors.sort((a, b) => fieldIndex(a.path) - fieldIndex(b.path));
  return errors;
}

// The profile's extra fields (not among the interface's) come last.
const fieldIndex = (path: string): number => {
  const index = CUSTOMER_FIELDS.indexOf(path.slice(1) as (typeof CUSTOMER_FIELDS)[number]);
  return index < 0 ? CUSTOMER_FIELDS.length : index;
};

/**
 * Optional fields sent empty are stored as absent; only the tin's last four digits are kept.
 * Personal data is never read back (the API does not return it), so it is stored sealed: inside
 * the desktop app, with the app's data key.
 */
function storedFields(app: App, input: CustomerInput): (string | null)[] {
  const optional = (value: string | undefined): string | null =>
    value && value.trim() !== '' ? app.secrets.seal(value) : null;
  const personal = (value: string): string => app.secrets.seal(value);
  return [
    input.firstName!,
    input.lastName!,
    input.email!,
    emailKey(input.email!),
    input.type!,
    personal(input.address1!),
    optional(input.address2),
    personal(input.city!),
    personal(input.state!),
    personal(input.postalCode!),
    personal(input.dateOfBirth!),
    personal(input.tin!.slice(-4)),
    optional(input.ipAddress),
  ];
}

/**
 * A create or retry body on the shared rules' names: the profile's taxpayer number is the rules'
 * `tin`. Today's real service names it `ssn`, and a `tin` there is an unknown field, ignored like any
 * other (its official schemas set no `additionalProperties`).
 */
function onRuleNames(app: App, json: unknown): unknown {
  const field = app.profile.taxpayerNumberField;
  if (field === 'tin' || typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const { tin: _unknown, [field]: number, ...rest } = json as Record<string, unknown>;
  return { ...rest, tin: number };
}

/** The body on the rules' names, or the service's 400 with each error at the field as the profile names it. */
function validInput(app: App, json: unknown, mode: 'create' | 'retry', self?: string): CustomerInput {
  const input = onRuleNames(app, json);
  const wirePath = `/${app.profile.taxpayerNumberField}`;
  const errors = customerErrors(app, input, mode, self);
  if (errors.length > 0) {
    throw validationError(
      errors.map((error) => (error.path === '/tin' ? { ...error, path: wirePath } : error)),
    );
  }
  return input as CustomerInput;
}

function createCustomer(ctx: RequestContext): Reply {
  const { app } = ctx;
  const input = validInput(app, ctx.json, 'create');
  const id = randomUUID();
  const status = app.profile.statusOnCreation(input.firstName!);
  app.store.transaction(() => {
    app.store.run(
      `INSERT INTO customers (first_name, last_name, email, email_key, type, address1, address2, city, state,
         postal_code, date_of_birth, tin_last4, ip_address, id, status, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...storedFields(app, input),
      id,
      status,
      app.clock.now(),
    );
    saveCustomerExtras(app, id, app.profile.customerExtras(input).extras);
    recordEvent(app, { topic: 'customer_created', customerId: id });
    recordStatusEvent(app, id, status);
  });
  return createdReply(urlOf(app, `/customers/${id}`));
}

/** The single retry of a customer in `retry`: every field again, corrected, with the full tin. */
function retryCustomer(ctx: RequestContext): Reply {
  const { app } = ctx;
  const customer = requireCustomer(app.store, ctx.params.id!);
  if (customer.status !== 'retry' || customer.retried === 1) throw invalidResourceState();
  const input = validInput(app, ctx.json, 'retry', customer.id);
  app.store.transaction(() => {
    app.store.run(
      `UPDATE customers SET first_name = ?, last_name = ?, email = ?, email_key = ?, type = ?, address1 = ?,
         address2 = ?, city = ?, state = ?, postal_code = ?, date_of_birth = ?, tin_last4 = ?, ip_address = ?,
         retried = 1
       WHERE id = ?`,
      ...storedFields(app, input),
      customer.id,
    );
    saveCustomerExtras(app, customer.id, app.profile.customerExtras(input).extras);
    enterStatus(app, customer.id, app.profile.statusAfterRetry(input.firstName!));
  });
  return halReply(200, customerResource(app, requireCustomer(app.store, customer.id)));
}

function getCustomer(ctx: RequestContext): Reply {
  return halReply(200, customerResource(ctx.app, requireCustomer(ctx.app.store, ctx.params.id!)));
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** `search` matches names and e-mail anywhere (case-insensitive); `email` matches exactly; `status` repeats. */
function listFilter(query: URLSearchParams): { where: string; params: string[] } {
  const clauses: string[] = [];
  const params: string[] = [];
  const search = query.get('search')?.trim().toLowerCase();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    clauses.push(
      `(lower(first_name) LIKE ? ESCAPE '\\' OR lower(last_name) LIKE ? ESCAPE '\\' OR email_key LIKE ? ESCAPE '\\'
        OR lower(first_name || ' ' || last_name) LIKE ? ESCAPE '\\')`,
    );
    params.push(pattern, pattern, pattern, pattern);
  }
  const email = query.get('email');
  if (email) {
    clauses.push('email_key = ?');
    params.push(emailKey(email));
  }
  const statuses = query.getAll('status').filter((status) => status !== '');
  if (statuses.length > 0) {
    clauses.push(`status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...statuses);
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function listCustomers(ctx: RequestContext): Reply {
  const { app, query } = ctx;
  const page = pageOf(query);
  const { where, params } = listFilter(query);
  const total =
    app.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM customers ${where}`, ...params)?.n ?? 0;
  const rows = app.store.all<CustomerRow>(
    `SELECT * FROM customers ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
    ...params,
    page.limit,
    page.offset,
  );
  return halReply(200, {
    _links: pageLinks(app, '/customers', query, page, total, 'customer'),
    _embedded: { customers: rows.map((row) => customerResource(app, row)) },
    total,
  });
}

/** The interface's four statuses always; the real profile's others once a customer has one. */
export function customerCountsByStatus(store: Store): Partial<Record<CustomerStatus, number>> {
  const counts: Partial<Record<CustomerStatus, number>> = {
    verified: 0,
    retry: 0,
    document: 0,
    suspended: 0,
  };
  for (const row of store.all<{ status: CustomerStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM customers GROUP BY status',
  )) {
    counts[row.status] = row.n;
  }
  return counts;
}

export function customerRoutes(): Route[] {
  return [
    { method: 'POST', pattern: '/customers', body: 'json', handle: createCustomer },
    { method: 'GET', pattern: '/customers', handle: listCustomers },
    { method: 'GET', pattern: '/customers/{id}', handle: getCustomer },
    { method: 'POST', pattern: '/customers/{id}', body: 'json', handle: retryCustomer },
  ];
}
