import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A recording front before a sandbox: the client under test is pointed at it, and every request and
 * answer that passes is kept as it was on the wire. Nothing in the client or the sandbox changes.
 * The sandbox's own origin in its answers (`Location`, HAL links) is rewritten to the front's, as a
 * reverse proxy does, so that the client follows links back through the front.
 */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  target: string;
  /** Lower-case names, as Node gives them. */
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Sent by the test itself (not the client): its answer is checked, its request is not. */
  raw: boolean;
  status: number;
  answerHeaders: http.IncomingHttpHeaders;
  answer: Buffer;
}

export interface RecordingFront {
  /** The base URL to give the client. */
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/** A request with this header is the test's own (`raw`); the header is not passed on. */
export const RAW_HEADER = 'x-official-test-raw';

export async function startRecordingFront(upstream: string): Promise<RecordingFront> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const exchanges: Exchange[] = [];
  let origin = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const raw = RAW_HEADER in req.headers;
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
      delete headers[RAW_HEADER];
      const out = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts).toString('latin1').replaceAll(target.origin, origin);
            const payload = Buffer.from(text, 'latin1');
            const answerHeaders = { ...answer.headers };
            if (answerHeaders.location)
              answerHeaders.location = answerHeaders.location.replace(target.origin, origin);
            delete answerHeaders['transfer-encoding'];
            answerHeaders['content-length'] = String(payload.length);
            exchanges.push({
              method: req.method ?? 'GET',
              target: req.url ?? '/',
              headers: req.headers,
              body,
              raw,
              status: answer.statusCode ?? 0,
              answerHeaders,
              answer: payload,
            });
            res.writeHead(answer.statusCode ?? 502, answerHeaders).end(payload);
          });
        },
      );
      out.on('error', (error) => res.writeHead(502).end(String(error)));
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    exchanges,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
