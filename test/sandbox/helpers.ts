import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { expect } from 'vitest';
import {
  type RunningSandbox,
  type SandboxOptions,
  type SandboxProfile,
  startSandbox,
} from '#sandbox/index.ts';

/** Drives a sandbox over real HTTP (undici), as a client of the service would. */
export const HAL = 'application/vnd.service.v1.hal+json';
export const ERROR_TYPE = `${HAL}; profile="http://nocarrier.co.uk/profiles/vnd.error/"`;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MiB = 1024 * 1024;

export interface Res {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests
  json: any;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export async function call(url: string, options: CallOptions = {}): Promise<Res> {
  const res = await request(url, {
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers,
    body: options.body,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

export interface ApiOptions {
  /** JSON-encoded and sent as the versioned media type. */
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  token?: string | null;
}

export interface Harness {
  sandbox: RunningSandbox;
  base: string;
  token: string;
  api(method: string, path: string, options?: ApiOptions): Promise<Res>;
  /** `person()` and `retryBody()` as this sandbox's profile names the fields (`inDialectOf`). */
  person(overrides?: Record<string, unknown>): Record<string, unknown>;
  retryBody(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** Creates a customer (a `person()` in the profile's dialect) and returns its id. */
  createCustomer(overrides?: Record<string, unknown>): Promise<string>;
  customer(id: string): Promise<Res>;
  /** Topics of the events about one customer, oldest first. */
  topicsOf(customerId: string): Promise<string[]>;
  upload(customerId: string, fileName?: string, documentType?: string, data?: Buffer): Promise<Res>;
  close(): Promise<void>;
}

/** The interface document's form: JSON to `POST /oauth/v2/token`. */
export function requestJsonToken(base: string, clientId: string, clientSecret: string): Promise<Res> {
  return call(`${base}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
    }),
  });
}

/** Today's real service's form: `POST /token`, form body, credentials in Basic. */
export function requestFormToken(
  base: string,
  clientId: string,
  clientSecret: string,
  path = '/token',
): Promise<Res> {
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`);
  return call(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${basic.toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
}

/** A token in the form the sandbox's profile asks for. */
export async function getToken(sandbox: RunningSandbox): Promise<string> {
  if (sandbox.profile === 'real') {
    const res = await requestFormToken(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret);
    expect(res.status, res.text).toBe(200);
    return res.json.access_token;
  }
  const res = await requestJsonToken(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret);
  expect(res.status).toBe(200);
  return res.json.access_token;
}

export async function harness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ data: ':memory:', ...options });
  const token = await getToken(sandbox);
  const base = sandbox.baseUrl;
  const api = (method: string, path: string, options: ApiOptions = {}): Promise<Res> => {
    const headers: Record<string, string> = { accept: HAL };
    const bearer = options.token === undefined ? token : options.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = HAL;
      body = JSON.stringify(options.json);
    }
    return call(path.startsWith('http') ? path : `${base}${path}`, {
      method,
      headers: { ...headers, ...options.headers },
      body,
    });
  };
  const h: Harness = {
    sandbox,
    base,
    token,
    api,
    person: (overrides) => inDialectOf(sandbox.profile, person(overrides)),
    retryBody: (overrides) => inDialectOf(sandbox.profile, retryBody(overrides)),
    async createCustomer(overrides = {}) {
      const res = await api('POST', '/customers', { json: inDialectOf(sandbox.profile, person(overrides)) });
      expect(res.status, res.text).toBe(201);
      return idOf(res.headers.location);
    },
    customer: (id) => api('GET', `/customers/${id}`),
    async topicsOf(customerId) {
      const res = await api('GET', '/events?limit=200');
      return (res.json._embedded.events as { topic: string; _links: { customer: { href: string } } }[])
        .filter((event) => event._links.customer.href.endsWith(customerId))
        .map((event) => event.topic)
        .reverse();
    },
    upload(customerId, fileName = 'passport.jpg', documentType = 'passport', data = jpeg()) {
      const form = multipart([
        { name: 'documentType', data: Buffer.from(documentType) },
        { name: 'file', filename: fileName, contentType: 'image/jpeg', data },
      ]);
      return api('POST', `/customers/${customerId}/documents`, {
        body: form.body,
        headers: { 'content-type': form.contentType, 'cache-control': 'no-cache' },
      });
    },
    close: () => sandbox.close(),
  };
  return h;
}

export function idOf(location: string | string[] | undefined): string {
  expect(typeof location).toBe('string');
  return String(location).split('/').at(-1)!;
}

let serial = 0;

/** A valid create body; the e-mail is unique per call. */
export function person(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  serial++;
  return {
    firstName: 'Jane',
    lastName: 'Doe',
    email: `jane.${serial}.${randomUUID().slice(0, 8)}@example.com`,
    ipAddress: '203.0.113.7',
    type: 'personal',
    address1: '1 Main St',
    address2: 'Apt 2',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62701',
    dateOfBirth: '1990-01-01',
    tin: '1234',
    ...overrides,
  };
}

/** A retry body: the same fields with the full tin. */
export function retryBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return person({ tin: '123-45-6789', ...overrides });
}

/**
 * A body of `person()` or `retryBody()` as a profile names the taxpayer number: `ssn` on today's real
 * service (an `ssn` the body already has wins over its `tin`), `tin` on the interface document's.
 */
export function inDialectOf(
  profile: SandboxProfile | undefined,
  body: Record<string, unknown>,
): Record<string, unknown> {
  if (profile !== 'real') return body;
  const { tin, ...rest } = body;
  return { ssn: tin, ...rest };
}

export function jpeg(size = 2048): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]).copy(bytes);
  bytes[size - 2] = 0xff;
  bytes[size - 1] = 0xd9;
  return bytes;
}

export function png(): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256)]);
}

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** Hand-built multipart/form-data, so tests can also send it broken. */
export function multipart(
  parts: Part[],
  boundary = `----vetted${randomUUID()}`,
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`,
      ),
    );
    chunks.push(part.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** An independent webhook receiver: keeps raw bodies and checks signatures with its own HMAC. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: the event is checked field by field
  event: any;
}

export type Responder = (req: IncomingMessage, res: ServerResponse) => void;

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Requests being held (not answered) right now, and the most ever held at once. */
  open: () => number;
  maxOpen: () => number;
  respondWith(responder: Responder | number): void;
  /** Answers every held request with 200. */
  releaseHeld(): void;
  close(): Promise<void>;
}

export const holdRequests: Responder = () => {};

export async function receiver(initial: Responder | number = 200, path = '/hooks'): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const held: ServerResponse[] = [];
  let responder: Responder = toResponder(initial);
  let open = 0;
  let maxOpen = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ headers: req.headers, raw, event: JSON.parse(raw.toString('utf8')) });
      open++;
      maxOpen = Math.max(maxOpen, open);
      res.on('close', () => open--);
      held.push(res);
      responder(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    open: () => open,
    maxOpen: () => maxOpen,
    respondWith: (next) => {
      responder = toResponder(next);
    },
    releaseHeld: () => {
      for (const res of held.splice(0)) if (!res.writableEnded) res.writeHead(200).end('ok');
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function toResponder(responder: Responder | number): Responder {
  if (typeof responder !== 'number') return responder;
  return (_req, res) => res.writeHead(responder, { 'content-type': 'text/plain' }).end(`status ${responder}`);
}

export function hmacHex(secret: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(raw).digest('hex');
}

export async function subscribe(h: Harness, url: string, secret = 'whsec-test-secret'): Promise<string> {
  const res = await h.api('POST', '/webhook-subscriptions', { json: { url, secret } });
  expect(res.status, res.text).toBe(201);
  return idOf(res.headers.location);
}

export const HOUR = 3600;
