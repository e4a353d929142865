import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceClient, type LogEntry, type ServiceClientOptions } from '#main/data/service/index.ts';

/**
 * A tiny stand-in for the service on 127.0.0.1: exact bodies and headers, resets, stalls, and a
 * record of every request received, for the tests that need full control.
 */

export const CLIENT_ID = 'fake-client-id';
export const CLIENT_SECRET = 'fake-client-secret-9c1e';
export const HAL = 'application/vnd.service.v1.hal+json';

export interface Received {
  method: string;
  /** Path and query. */
  url: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: Received, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface FakeService {
  baseUrl: string;
  received: Received[];
  tokensIssued: number;
  /** Tokens handed out, newest last. */
  tokens: string[];
  /** Tokens to reject as expired from now on. */
  expired: Set<string>;
  tokenTtlSeconds: number;
  /** The built-in token endpoint, for a route that replaces it to fall back on. */
  issueToken: (req: Received, res: ServerResponse) => void;
  route(method: string, path: string, handler: Handler): void;
  /** Requests received for one method and path (query ignored). */
  count(method: string, path: string): number;
  close(): Promise<void>;
}

let requestCounter = 0;

export function reply(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'X-Request-ID': `req-${++requestCounter}`,
    ...(text ? { 'Content-Type': HAL } : {}),
    ...headers,
  });
  res.end(text);
}

function readBody(raw: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => resolve(Buffer.concat(chunks)));
    raw.on('error', reject);
  });
}

/**
 * `document`: the interface document's token endpoint (JSON to `/oauth/v2/token`); `real`: today's
 * real service (`/token`, a form body with HTTP Basic, `token_type: "Bearer"`, no scope; `/oauth/v2/token`
 * answers 404).
 */
export type FakeTokenForm = 'document' | 'real';

export async function startFakeService(
  options: { tokenTtlSeconds?: number; tokenForm?: FakeTokenForm } = {},
): Promise<FakeService> {
  const tokenPath = options.tokenForm === 'real' ? '/token' : '/oauth/v2/token';
  const routes = new Map<string, Handler>();
  const valid = new Set<string>();
  const fake: FakeService = {
    baseUrl: '',
    received: [],
    tokensIssued: 0,
    tokens: [],
    expired: new Set(),
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    issueToken: (req, res) => issueToken(req, res),
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    count: (method, path) => fake.received.filter((r) => r.method === method && r.path === path).length,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  function grantOf(req: Received): { client_id?: string; client_secret?: string; grant_type?: string } {
    if (options.tokenForm !== 'real') return JSON.parse(req.body.toString() || '{}');
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const [id, secret] = Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent);
    const form = new URLSearchParams(req.body.toString());
    return { client_id: id, client_secret: secret, grant_type: form.get('grant_type') ?? undefined };
  }

  function issueToken(req: Received, res: ServerResponse) {
    const grant = grantOf(req);
    if (grant.client_id !== CLIENT_ID || grant.client_secret !== CLIENT_SECRET) {
      return reply(res, 401, { error: 'invalid_client' });
    }
    if (grant.grant_type !== 'client_credentials')
      return reply(res, 400, { error: 'unsupported_grant_type' });
    const token = `tok-${randomUUID()}`;
    valid.add(token);
    fake.tokens.push(token);
    fake.tokensIssued++;
    const real = options.tokenForm === 'real';
    reply(res, 200, {
      access_token: token,
      token_type: real ? 'Bearer' : 'bearer',
      expires_in: fake.tokenTtlSeconds,
      ...(real ? {} : { scope: 'Send|Funding' }),
    });
  }

  function authError(req: Received): { code: string; message: string } | undefined {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return { code: 'InvalidCredentials', message: 'Missing or invalid Authorization header.' };
    if (fake.expired.has(token)) {
      return {
        code: 'ExpiredAccessToken',
        message: 'Generate a new access token using your client credentials.',
      };
    }
    if (!valid.has(token)) return { code: 'InvalidAccessToken', message: 'Invalid access token.' };
    return undefined;
  }

  const server = createServer(async (raw, res) => {
    const url = new URL(raw.url ?? '/', 'http://fake');
    const req: Received = {
      method: raw.method ?? 'GET',
      url: raw.url ?? '/',
      path: url.pathname,
      headers: raw.headers,
      body: await readBody(raw),
    };
    fake.received.push(req);
    const handler = routes.get(`${req.method} ${req.path}`);
    const isTokenRequest = req.method === 'POST' && (req.path === '/token' || req.path === '/oauth/v2/token');
    if (isTokenRequest && handler) return handler(req, res, raw);
    if (isTokenRequest && req.path === tokenPath) return issueToken(req, res);
    if (isTokenRequest) return reply(res, 404, { code: 'notFound', message: 'Not found.' });
    const denied = authError(req);
    if (denied) return reply(res, 401, denied);
    if (!handler) return reply(res, 404, { code: 'NotFound', message: 'Not found.' });
    await handler(req, res, raw);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A client of the fake with instant, recorded back-off and a captured log. */
export function clientOf(fake: FakeService, overrides: Partial<ServiceClientOptions> = {}) {
  const logs: LogEntry[] = [];
  const sleeps: number[] = [];
  const client = createServiceClient({
    baseUrl: fake.baseUrl,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    log: (entry) => logs.push(entry),
    random: () => 0.5,
    // The fake speaks the document's form unless a test says otherwise; the budget stays out of the way
    // of tests about something else.
    tokenEndpoint: 'document',
    budget: { ratePerSecond: 10_000, burst: 10_000 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return { client, logs, sleeps };
}

export function customerBody(baseUrl: string, id: string, status = 'verified') {
  return {
    _links: { self: { href: `${baseUrl}/customers/${id}`, type: HAL, 'resource-type': 'customer' } },
    id,
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@example.com',
    type: 'personal',
    status,
    created: '2026-11-22T10:00:00.000Z',
  };
}
