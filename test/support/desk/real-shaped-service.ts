import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '#sandbox/index.ts';

/**
 * The built-in sandbox behind a stand-in that gives its customers today's real-service shape
 * (real-service.md): extra fields on GET, statuses it does not have (`kba`, `deactivated`, …) and
 * `_links` by status. Everything else passes through untouched. Each request is recorded, so a
 * test can show that a refused action sent nothing.
 */
export interface RealShape {
  /** Fields added to every customer's GET. */
  extra: Record<string, unknown>;
  /** The status to report instead of the sandbox's, by customer id. */
  status: Map<string, string>;
  /** Link relations to leave out, by customer id (the service not offering an action). */
  withhold: Map<string, string[]>;
  received: { method: string; path: string }[];
}

// real-service.md, "customer _links": which relations today's service gives in each status.
const LINKS_BY_STATUS: Record<string, string[]> = {
  verified: ['send', 'receive', 'funding-sources', 'transfers'],
  retry: ['retry-verification', 'receive', 'funding-sources', 'transfers'],
  document: ['verify-with-document', 'document-form', 'receive', 'funding-sources', 'transfers'],
  kba: ['verify-with-kba', 'receive', 'funding-sources', 'transfers'],
  suspended: ['funding-sources', 'transfers'],
  deactivated: ['funding-sources', 'transfers'],
};

const CUSTOMER_PATH = /^\/customers\/([^/?]+)$/;

export function realShape(extra: Record<string, unknown>): RealShape {
  return { extra, status: new Map(), withhold: new Map(), received: [] };
}

function reshape(shape: RealShape, id: string, body: Record<string, unknown>): Record<string, unknown> {
  const status = shape.status.get(id) ?? String(body.status);
  const self = (body._links as Record<string, { href: string }>).self;
  const withheld = shape.withhold.get(id) ?? [];
  const links: Record<string, { href: string }> = self ? { self } : {};
  for (const rel of LINKS_BY_STATUS[status] ?? []) {
    if (!withheld.includes(rel)) links[rel] = { href: `${self?.href ?? ''}/${rel}` };
  }
  return { ...body, ...shape.extra, status, _links: links };
}

/** A `startSandbox` for the desk: the sandbox, reached only through the real-shaped stand-in. */
export function realShapedSandbox(shape: RealShape) {
  return async (options: SandboxOptions): Promise<RunningSandbox> => {
    const sandbox = await startSandbox({ ...options, reviewDelayMs: 60_000 });
    let origin = '';
    const server = createServer(async (req, res) => {
      const path = req.url ?? '/';
      shape.received.push({ method: req.method ?? 'GET', path });
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
        ),
      );
      const answer = await fetch(`${sandbox.baseUrl}${path}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      let text = (await answer.text()).replaceAll(sandbox.baseUrl, origin);
      const id = CUSTOMER_PATH.exec(path)?.[1];
      if (req.method === 'GET' && id && answer.status === 200) {
        text = JSON.stringify(reshape(shape, decodeURIComponent(id), JSON.parse(text)));
      }
      const out: Record<string, string> = {};
      for (const name of ['content-type', 'location', 'x-request-id', 'retry-after']) {
        const value = answer.headers.get(name);
        if (value) out[name] = value.replaceAll(sandbox.baseUrl, origin);
      }
      res.writeHead(answer.status, out);
      res.end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      ...sandbox,
      baseUrl: origin,
      advanceClock: (seconds) => sandbox.advanceClock(seconds),
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await sandbox.close();
      },
    };
  };
}
