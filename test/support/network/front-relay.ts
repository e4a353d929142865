// The front both hubs stand behind, as a team's tunnel or load balancer: the service's deliveries come to one
// public URL, and each goes to the first hub whose listener takes the connection. Only the leading hub
// listens (a standby's port refuses), so no health check is needed to find it. A request already handed to a
// hub that dies is answered 502 (it may or may not have been recorded: nobody retries it but the service).
// The front can also hold the hubs' answers, to play answers still on their way when a hub dies.
// No vitest here: the failover bench uses it too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Upstream {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface Held {
  res: http.ServerResponse;
  answer: Upstream;
  eventId: string | null;
}

export interface FrontRelay {
  /** The public URL the hubs subscribe (`--public-url`). */
  readonly url: string;
  /** From now on, the hubs' answers wait here instead of going back to the service. */
  holdAnswers(): void;
  /** Answers waiting. */
  readonly held: number;
  /**
   * Cuts the service's connection of every answer waiting, and holds no more: the service never hears those
   * answers, as when a hub dies before its answer leaves. Answers the events of the answers cut.
   */
  dropHeld(): string[];
  close(): Promise<void>;
}

/** `backends`: the hubs' listener ports on 127.0.0.1, in the order they are tried. */
export async function startFrontRelay(backends: readonly number[], path = '/webhooks'): Promise<FrontRelay> {
  let holding = false;
  let held: Held[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void relay(req, body).then((answer) => {
        if (answer === 'cut') return void res.writeHead(502).end('the hub went away');
        if (answer === 'none') return void res.writeHead(503).end('no hub listens');
        if (holding) held.push({ res, answer, eventId: eventIdOf(body) });
        else send(res, answer);
      });
    });
  });

  /** The first backend that takes the connection answers; one that refuses it is skipped. */
  const relay = async (req: http.IncomingMessage, body: Buffer): Promise<Upstream | 'cut' | 'none'> => {
    for (const port of backends) {
      const answer = await forward(port, req, body);
      if (answer !== 'refused') return answer;
    }
    return 'none';
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    holdAnswers() {
      holding = true;
    },
    get held() {
      return held.length;
    },
    dropHeld() {
      const dropped = held;
      held = [];
      holding = false;
      for (const { res } of dropped) res.destroy();
      return dropped.map((one) => one.eventId).filter((id) => id !== null);
    },
    async close() {
      for (const { res } of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function forward(
  port: number,
  req: http.IncomingMessage,
  body: Buffer,
): Promise<Upstream | 'cut' | 'refused'> {
  return new Promise((resolve) => {
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          host: `127.0.0.1:${port}`,
          // Gone once the sender gave up on the request (its socket closed): no header rather than a throw.
          ...(req.socket.remoteAddress ? { 'x-forwarded-for': req.socket.remoteAddress } : {}),
        },
        // A connection of its own per request: a kept-alive one to a hub that died would fail ambiguously.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 502,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', () => resolve('cut'));
        response.on('aborted', () => resolve('cut'));
      },
    );
    // Refused: nothing was sent, the next hub may take it. Anything else once sent: it may have been recorded.
    upstream.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'cut'),
    );
    upstream.end(body);
  });
}

function send(res: http.ServerResponse, answer: Upstream): void {
  const headers = { ...answer.headers };
  delete headers['transfer-encoding'];
  delete headers.connection;
  res.writeHead(answer.status, { ...headers, 'content-length': answer.body.length }).end(answer.body);
}

function eventIdOf(body: Buffer): string | null {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { id?: unknown };
    return typeof parsed.id === 'string' ? parsed.id : null;
  } catch {
    return null;
  }
}
