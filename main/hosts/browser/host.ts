import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventHub } from '#main/ground/event-hub.ts';
import { readRendererFile } from '#main/ground/host/renderer-files.ts';
import { RENDERER_HEADERS } from '#main/ground/host/security-headers.ts';
import type { Dispatch } from '#main/ground/serve.ts';

/**
 * Browser mode: the same desk as under Electron, carried over loopback HTTP (invoke) and
 * server-sent events (pushed events) to the renderer running in an ordinary browser.
 *
 * Guards: the Host header (defeats DNS rebinding) and, where the browser sends one, the Origin
 * (defeats cross-site requests) on every request; and on every API request a random per-launch
 * token. The token is never a cookie: cookies are not scoped by port, so any other server on
 * 127.0.0.1 would receive it. The launch URL carries it in its fragment (never sent to a server,
 * never in a Referer); the page keeps it in sessionStorage, which is this origin's (port
 * included) alone, and sends it as a bearer token. The renderer's files are public code and need
 * no token; every piece of data is behind `/api/`.
 */

export interface BrowserHostOptions {
  dispatch: Dispatch<BrowserSession>;
  events: EventHub;
  rendererDir: string;
  port?: number;
  /**
   * Each request once answered (the log file's request lines): method, path without its query, status
   * and time. Never a header: the token travels in one.
   */
  onRequest?: (request: { method: string; path: string; status: number; ms: number }) => void;
}

/** What browser mode vouches for: a request that carried this launch's token. */
export interface BrowserSession {
  kind: 'browser-session';
  authenticated: boolean;
}

export interface BrowserHost {
  /** Open this to start: it carries the token once, then the cookie does. */
  launchUrl: string;
  origin: string;
  close(): Promise<void>;
}

const MAX_INVOKE_BODY = 16 * 1024 * 1024; // a dropped ID photo (10 MiB) travels base64-encoded
const HEARTBEAT_MS = 25_000;

/** What the host's requests share: the launch's token, the open event streams, and where it listens. */
interface HostState {
  options: BrowserHostOptions;
  token: string;
  streams: Set<ServerResponse>;
  origin: string;
  hostHeader: string;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const state: HostState = {
    options,
    token: randomBytes(32).toString('base64url'),
    streams: new Set(),
    origin: '',
    hostHeader: '',
  };
  const server = createServer((req, res) => answer(state, req, res));
  const unsubscribe = options.events.subscribe((event, payload) => {
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const stream of state.streams) stream.write(frame);
  });
  // Comments keep idle streams open through anything that times out quiet connections.
  const heartbeat = setInterval(() => {
    for (const stream of state.streams) stream.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  await listen(server, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  state.hostHeader = `127.0.0.1:${port}`;
  state.origin = `http://${state.hostHeader}`;

  return {
    launchUrl: `${state.origin}/#token=${state.token}`,
    origin: state.origin,
    async close() {
      unsubscribe();
      clearInterval(heartbeat);
      for (const stream of state.streams) stream.end();
      // Idle keep-alive sockets a browser still holds would keep close() waiting for a minute.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** One request: answered, its line told to `onRequest` once it closes, a failure a refusal in words. */
function answer(state: HostState, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  // An event stream stays open for as long as the page does: its line comes when it closes.
  res.once('close', () =>
    state.options.onRequest?.({
      method: req.method ?? '?',
      path: (req.url ?? '').split('?')[0] ?? '',
      status: res.statusCode,
      ms: Math.round(performance.now() - started),
    }),
  );
  handle(state, req, res).catch(() => {
    if (!res.headersSent)
      refuse(res, 500, 'Internal', 'Something went wrong in Vetted; details are in the log.');
    else res.destroy();
  });
}

async function handle(state: HostState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.headers.host !== state.hostHeader)
    return refuse(res, 421, 'WrongHost', 'This address is not Vetted’s.');
  if (!isSameOrigin(req, state.origin)) {
    return refuse(res, 403, 'Forbidden', 'A request from another site is refused.');
  }
  const url = new URL(req.url ?? '/', state.origin);
  if (url.pathname.startsWith('/api/')) return handleApi(state, req, res, url);
  if (req.method !== 'GET') return refuse(res, 405, 'MethodNotAllowed', 'Only GET is answered here.');
  const file = await readRendererFile(state.options.rendererDir, url.pathname);
  if (!file) return refuse(res, 404, 'NotFound', 'There is no such file.');
  res.writeHead(200, { ...RENDERER_HEADERS, 'Content-Type': file.contentType });
  res.end(file.body);
}

async function handleApi(
  state: HostState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  // EventSource cannot send headers: the event stream alone takes the token in its query.
  const offered = bearerOf(req) ?? (url.pathname === '/api/events' ? url.searchParams.get('token') : null);
  if (!tokenMatches(offered, state.token)) {
    return refuse(
      res,
      401,
      'Unauthorized',
      'Open Vetted with the address printed at start-up: it carries the key.',
    );
  }
  if (url.pathname === '/api/events') {
    if (req.method !== 'GET')
      return refuse(res, 405, 'MethodNotAllowed', 'The event stream is read with GET.');
    return openEventStream(state.streams, res);
  }
  if (!url.pathname.startsWith('/api/invoke/')) return refuse(res, 404, 'NotFound', 'There is no such API.');
  if (req.method !== 'POST') return refuse(res, 405, 'MethodNotAllowed', 'Channels are invoked with POST.');
  if (!req.headers['content-type']?.startsWith('application/json')) {
    return refuse(res, 415, 'UnsupportedMediaType', 'Send the input as application/json.');
  }
  const channel = decodedChannel(url.pathname.slice('/api/invoke/'.length));
  if (channel === null) {
    return refuse(res, 400, 'BadRequest', 'The channel name in the address is not valid percent-encoding.');
  }
  const body = await readJson(req, MAX_INVOKE_BODY);
  if (!body.ok) return refuse(res, body.status, body.code, body.message);
  const session: BrowserSession = { kind: 'browser-session', authenticated: true };
  const input = (body.value as { input?: unknown } | null)?.input;
  send(res, 200, await state.options.dispatch(channel, session, input));
}

function openEventStream(streams: Set<ServerResponse>, res: ServerResponse): void {
  res.writeHead(200, { ...API_HEADERS, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
  res.write(': connected\n\n');
  streams.add(res);
  res.on('close', () => streams.delete(res));
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Browsers send Origin on every cross-origin request and on same-origin POSTs; a foreign one is refused. */
function isSameOrigin(req: IncomingMessage, origin: string): boolean {
  const sent = req.headers.origin;
  if (sent !== undefined && sent !== origin) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

function tokenMatches(candidate: string | null | undefined, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function bearerOf(req: IncomingMessage): string | null {
  const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** A channel name from the address, or null when its percent-encoding is broken (`%`, `%zz`, `%E0%A4%A`). */
function decodedChannel(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

type JsonBody = { ok: true; value: unknown } | { ok: false; status: number; code: string; message: string };

async function readJson(req: IncomingMessage, limit: number): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      return {
        ok: false,
        status: 413,
        code: 'TooLarge',
        message: 'The request is larger than Vetted accepts.',
      };
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, code: 'BadRequest', message: 'The request body is not JSON.' };
  }
}

/** On every answer of the API: never cached, never sniffed as anything but what it says it is. */
const API_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...API_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** A refusal in the contract's own shape: a typed error in words, as any channel's would be. */
function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { ok: false, error: { code, message } });
}
