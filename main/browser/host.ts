import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readRendererFile } from '../electron/renderer-files.ts';
import { RENDERER_HEADERS } from '../electron/security.ts';
import type { EventHub } from '../event-hub.ts';
import type { Dispatch } from '../serve.ts';

/**
 * Browser mode: the same desk as under Electron, carried over loopback HTTP (invoke) and
 * server-sent events (pushed events) to the renderer running in an ordinary browser.
 *
 * Guards, all on every request: a random per-launch token (an HttpOnly, SameSite=Strict cookie
 * set when the launch URL is opened), the Host header (defeats DNS rebinding) and, where the
 * browser sends one, the Origin (defeats cross-site requests).
 */

export interface BrowserHostOptions {
  dispatch: Dispatch<BrowserSession>;
  events: EventHub;
  rendererDir: string;
  port?: number;
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

const COOKIE = 'vetted_session';
const MAX_INVOKE_BODY = 16 * 1024 * 1024; // a dropped ID photo (10 MiB) travels base64-encoded
const HEARTBEAT_MS = 25_000;

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  let origin = '';
  let hostHeader = '';

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'Internal error' });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    if (req.headers.host !== hostHeader) return send(res, 421, { error: 'Wrong Host' });
    if (!isSameOrigin(req, origin)) return send(res, 403, { error: 'Cross-origin request refused' });

    if (req.method === 'GET' && url.pathname === '/' && url.searchParams.has('token')) {
      if (!tokenMatches(url.searchParams.get('token'), token))
        return send(res, 401, { error: 'Wrong token' });
      res.writeHead(303, {
        Location: '/',
        'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        'Cache-Control': 'no-store',
      });
      return void res.end();
    }
    if (!tokenMatches(readCookie(req, COOKIE), token)) {
      return send(res, 401, {
        error: 'Open Vetted with the URL printed at start-up (it carries the token).',
      });
    }
    const session: BrowserSession = { kind: 'browser-session', authenticated: true };

    if (url.pathname.startsWith('/api/invoke/')) {
      if (req.method !== 'POST') return send(res, 405, { error: 'POST only' });
      if (!req.headers['content-type']?.startsWith('application/json')) {
        return send(res, 415, { error: 'JSON only' });
      }
      const body = await readJson(req, MAX_INVOKE_BODY);
      if (!body.ok) return send(res, body.status, { error: body.error });
      const channel = decodeURIComponent(url.pathname.slice('/api/invoke/'.length));
      const input = (body.value as { input?: unknown } | null)?.input;
      return send(res, 200, await options.dispatch(channel, session, input));
    }
    if (url.pathname === '/api/events') {
      if (req.method !== 'GET') return send(res, 405, { error: 'GET only' });
      return openEventStream(res);
    }
    if (req.method !== 'GET') return send(res, 405, { error: 'GET only' });
    const file = await readRendererFile(options.rendererDir, url.pathname);
    if (!file) return send(res, 404, { error: 'Not found' });
    res.writeHead(200, { ...RENDERER_HEADERS, 'Content-Type': file.contentType });
    res.end(file.body);
  }

  function openEventStream(res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  const unsubscribe = options.events.subscribe((event, payload) => {
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const stream of streams) stream.write(frame);
  });
  // Comments keep idle streams open through anything that times out quiet connections.
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  await listen(server, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  hostHeader = `127.0.0.1:${port}`;
  origin = `http://${hostHeader}`;

  return {
    launchUrl: `${origin}/?token=${token}`,
    origin,
    async close() {
      unsubscribe();
      clearInterval(heartbeat);
      for (const stream of streams) stream.end();
      // Idle keep-alive sockets a browser still holds would keep close() waiting for a minute.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
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

function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

type JsonBody = { ok: true; value: unknown } | { ok: false; status: number; error: string };

async function readJson(req: IncomingMessage, limit: number): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return { ok: false, status: 413, error: 'Request too large' };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, error: 'Not JSON' };
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}
