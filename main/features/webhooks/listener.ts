import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { limitConnections } from './connection-slots.ts';
import type { Answer } from './ingest.ts';
import type { Rejection } from './security-log.ts';
import { SIGNATURE_HEADER } from './signature.ts';

/**
 * The webhook listener: `node:http` on 127.0.0.1 only (a tunnel brings the service's requests
 * here). One path, POST only, the raw body capped and read against a deadline, the signature
 * checked before anything else is looked at. Each request is handled as it comes: deliveries never
 * wait behind one another, only their commits are grouped (see journal/group-commit.ts).
 */
export const LISTENER_HOST = '127.0.0.1';
export const WEBHOOK_PATH = '/webhooks';
export const MAX_BODY_BYTES = 1024 * 1024;
/** Sent by Vetted's own tunnel check through the public URL; the listener answers it without a signature. */
export const TUNNEL_CHECK_HEADER = 'x-vetted-tunnel-check';

export interface ListenerLimits {
  maxBodyBytes: number;
  /** Time to send the request line and headers (slowloris). */
  headersTimeoutMs: number;
  /** Time to send the body once the headers are in; the service itself gives up after 10 s. */
  bodyTimeoutMs: number;
  /**
   * Open connections at most (the service sends at most 10 deliveries at once); past it, the one idle
   * the longest is closed to make room (connection-slots.ts).
   */
  maxConnections: number;
}

export const DEFAULT_LIMITS: ListenerLimits = {
  maxBodyBytes: MAX_BODY_BYTES,
  headersTimeoutMs: 5_000,
  bodyTimeoutMs: 10_000,
  maxConnections: 256,
};

export interface ListenerHandlers {
  /** Whether the signature is the body's HMAC under a secret of ours. */
  verify(body: Buffer, signature: string | undefined): boolean;
  /** A verified delivery: record it and say what to answer. */
  deliver(body: Buffer): Promise<Answer>;
  /** A refused request, for the security log. */
  reject(rejection: Rejection): void;
  /** A tunnel check arriving: true when the nonce is one Vetted is waiting for. */
  probe(nonce: string, path: string): boolean;
}

export interface RunningListener {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

// After refusing a request, the sender gets this long to read the answer before the connection is cut.
const REFUSAL_GRACE_MS = 1_000;

export async function startListener(
  port: number,
  handlers: ListenerHandlers,
  limits: ListenerLimits = DEFAULT_LIMITS,
): Promise<RunningListener> {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // A backstop for the whole request; the body deadline below is the precise one.
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs + 1_000,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
      keepAliveTimeout: 5_000,
    },
    (req, res) =>
      void handle(req, res, handlers, limits).catch(() => {
        // Unexpected: nothing is acknowledged, so the service delivers it again.
        answer(res, 500, { error: 'internal' });
      }),
  );
  limitConnections(server, limits.maxConnections, (socket) =>
    handlers.reject({
      remoteAddress: socket.remoteAddress ?? 'unknown',
      forwardedFor: null,
      status: 408,
      reason: 'shed-idle-connection',
    }),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    onClientError(error, socket, handlers),
  );
  const bound = await listen(server, port);
  const url = `http://${LISTENER_HOST}:${bound}${WEBHOOK_PATH}`;
  return {
    port: bound,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A delivery mid-way is not acknowledged: the service sends it again.
        setTimeout(() => server.closeAllConnections(), REFUSAL_GRACE_MS).unref();
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: LISTENER_HOST, exclusive: true }, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ListenerHandlers,
  limits: ListenerLimits,
): Promise<void> {
  const refuse = (status: number, reason: string) => refuseRequest(req, res, handlers, status, reason);
  const path = pathOf(req.url);
  const nonce = singleHeader(req, TUNNEL_CHECK_HEADER);
  if (nonce !== undefined && handlers.probe(nonce, path)) {
    return answer(res, 200, { tunnel: 'Vetted' });
  }
  if (path !== WEBHOOK_PATH) return refuse(404, 'path');
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return refuse(405, 'method');
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limits.maxBodyBytes) return refuse(413, 'too-large');
  const signature = singleHeader(req, SIGNATURE_HEADER);
  if (signature === undefined) return refuse(401, 'signature-missing');

  const body = await readBody(req, limits);
  if (body === 'too-large') return refuse(413, 'too-large');
  if (body === 'too-slow') return refuse(408, 'too-slow');
  if (body === 'aborted') return;
  if (!handlers.verify(body, signature)) return refuse(401, 'signature-mismatch');
  const outcome = await handlers.deliver(body);
  answer(res, outcome.status, outcome.body);
}

/** The raw bytes, or why there are none: over the cap, past the deadline, or the sender went away. */
function readBody(
  req: IncomingMessage,
  limits: ListenerLimits,
): Promise<Buffer | 'too-large' | 'too-slow' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const finish = (outcome: Buffer | 'too-large' | 'too-slow' | 'aborted') => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.off('data', onData);
      // Stop reading what is left of a refused body; the refusal closes the connection.
      if (!Buffer.isBuffer(outcome)) req.pause();
      resolve(outcome);
    };
    const deadline = setTimeout(() => finish('too-slow'), limits.bodyTimeoutMs);
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limits.maxBodyBytes) return finish('too-large');
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(Buffer.concat(chunks, length)));
    req.once('error', () => finish('aborted'));
    req.once('close', () => finish('aborted'));
  });
}

function refuseRequest(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ListenerHandlers,
  status: number,
  reason: string,
): void {
  handlers.reject({ ...senderOf(req), status, reason });
  res.shouldKeepAlive = false;
  answer(res, status, { error: reason });
  // Whatever the sender still has to send is not read: the connection goes once it had time to read this.
  const socket = req.socket;
  res.once('finish', () => setTimeout(() => socket.destroy(), REFUSAL_GRACE_MS).unref());
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

/** Headers slower than the deadline, or not HTTP at all: refused and logged; a vanished peer is not. */
function onClientError(error: NodeJS.ErrnoException, socket: Socket, handlers: ListenerHandlers): void {
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') {
    handlers.reject({
      remoteAddress: socket.remoteAddress ?? 'unknown',
      forwardedFor: null,
      status: timedOut ? 408 : 400,
      reason: timedOut ? 'too-slow' : 'malformed-request',
    });
  }
  if (!socket.writable || socket.destroyed) return void socket.destroy();
  socket.end(`HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
  setTimeout(() => socket.destroy(), REFUSAL_GRACE_MS).unref();
}

function senderOf(req: IncomingMessage): Pick<Rejection, 'remoteAddress' | 'forwardedFor'> {
  // Behind a tunnel the peer is the tunnel itself; the sender it names is kept too, as told, not proven.
  const forwarded = singleHeader(req, 'cf-connecting-ip') ?? singleHeader(req, 'x-forwarded-for');
  return {
    remoteAddress: req.socket.remoteAddress ?? 'unknown',
    forwardedFor: forwarded ? forwarded.slice(0, 200) : null,
  };
}

function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
