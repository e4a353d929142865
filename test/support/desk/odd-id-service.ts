import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningSandbox, SandboxOptions } from '#sandbox/index.ts';
import { loadDescription, MEDIA_TYPE } from '#test/official/description.ts';

/**
 * A stand-in service that answers as the official description (test/official/openapi.yml) allows, with ids
 * chosen by the test: every body is the description's own example for its schema, under the id given. Ids go
 * percent-encoded in paths and links, as a URL must carry them. No webhooks are ever delivered. Enough of the
 * service for the desk's customers, documents, events and subscriptions; nothing else.
 */
export interface OddIdService {
  /** A customer, listed and served under this id (status `document`, so its documents are read). */
  addCustomer(id: string, documentIds?: string[]): void;
  addEvent(id: string, resourceId: string): void;
  /** The id the next subscription created gets. */
  nextSubscriptionId(id: string): void;
  /** Subscriptions the service holds now, by id. */
  subscriptions: Map<string, { url: string; paused: boolean }>;
  received: { method: string; path: string }[];
}

type Schema = { properties?: Record<string, { example?: unknown }>; allOf?: ({ $ref?: string } & Schema)[] };

/** The description's example of a schema: each property's `example`, through `allOf` references. */
export function descriptionExample(name: string): Record<string, unknown> {
  // The vendored description (test/official/), as the contract tests load it.
  const doc = loadDescription() as { components: { schemas: Record<string, Schema> } };
  const walk = (schema: Schema): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const part of schema.allOf ?? []) {
      const ref = part.$ref?.split('/').at(-1);
      Object.assign(out, walk(ref ? (doc.components.schemas[ref] as Schema) : part));
    }
    for (const [field, spec] of Object.entries(schema.properties ?? {})) {
      if (spec.example !== undefined) out[field] = spec.example;
    }
    return out;
  };
  return walk(doc.components.schemas[name] as Schema);
}

export function oddIdService(service: OddIdService) {
  return async (_options: SandboxOptions): Promise<RunningSandbox> => {
    let origin = '';
    // A broken character cannot be percent-encoded: its link carries U+FFFD (the id in the body stays as it is).
    const link = (...parts: string[]) => ({
      href: `${origin}/${parts.map((part) => encodeURIComponent(part.toWellFormed())).join('/')}`,
    });
    const customers = new Map<string, string[]>();
    const events = new Map<string, string>();
    const pending: string[] = [];
    const examples = {
      customer: descriptionExample('VerifiedPersonalCustomer'),
      document: descriptionExample('Document'),
      event: descriptionExample('Event'),
      subscription: descriptionExample('WebhookSubscription'),
    };
    Object.assign(service, {
      addCustomer: (id: string, documentIds: string[] = []) => customers.set(id, documentIds),
      addEvent: (id: string, resourceId: string) => events.set(id, resourceId),
      nextSubscriptionId: (id: string) => pending.push(id),
    });
    const customer = (id: string) => ({
      ...examples.customer,
      _links: { self: link('customers', id) },
      id,
      status: 'document',
    });
    const document = (id: string) => ({ ...examples.document, _links: { self: link('documents', id) }, id });
    const event = (id: string) => ({
      ...examples.event,
      _links: { self: link('events', id), resource: link('customers', events.get(id) ?? '') },
      id,
      resourceId: events.get(id),
    });
    const subscription = (id: string) => ({
      ...examples.subscription,
      _links: { self: link('webhook-subscriptions', id) },
      id,
      ...service.subscriptions.get(id),
    });
    const page = (key: string, items: unknown[]) => ({
      _links: {},
      _embedded: { [key]: items },
      total: items.length,
    });
    const paged = (query: string, key: string, all: unknown[]) => {
      const params = new URLSearchParams(query);
      const offset = Number(params.get('offset') ?? 0);
      const items = all.slice(offset, offset + Number(params.get('limit') ?? 25));
      return { ...page(key, items), total: all.length };
    };

    const answer = async (req: IncomingMessage, res: ServerResponse): Promise<unknown> => {
      const [path = '', query = ''] = (req.url ?? '/').split('?');
      service.received.push({ method: req.method ?? '', path });
      const [collection, id, sub] = path.split('/').slice(1).map(decodeURIComponent);
      const route = `${req.method} ${collection}${id === undefined ? '' : '/:id'}${sub ? `/${sub}` : ''}`;
      const body = await readJson(req);
      if (req.method === 'POST' && /^\/(oauth\/v2\/)?token$/.test(path)) {
        return reply(res, 200, { access_token: 'odd-token', token_type: 'Bearer', expires_in: 3600 });
      }
      const notFound = () => reply(res, 404, { code: 'NotFound', message: 'Not found.' });
      switch (route) {
        case 'GET customers':
          return reply(res, 200, paged(query, 'customers', [...customers.keys()].map(customer)));
        case 'GET customers/:id':
          return customers.has(id as string) ? reply(res, 200, customer(id as string)) : notFound();
        case 'GET customers/:id/documents':
          return reply(res, 200, page('documents', (customers.get(id as string) ?? []).map(document)));
        case 'GET events':
          return reply(res, 200, paged(query, 'events', [...events.keys()].map(event)));
        case 'GET events/:id':
          return events.has(id as string) ? reply(res, 200, event(id as string)) : notFound();
        case 'GET webhook-subscriptions':
          return reply(
            res,
            200,
            page('webhook-subscriptions', [...service.subscriptions.keys()].map(subscription)),
          );
        case 'POST webhook-subscriptions': {
          const created = pending.shift() ?? `sub-${service.subscriptions.size}`;
          service.subscriptions.set(created, { url: String((body as { url?: unknown }).url), paused: false });
          res.setHeader('Location', link('webhook-subscriptions', created).href);
          return reply(res, 201);
        }
        case 'GET webhook-subscriptions/:id':
        case 'POST webhook-subscriptions/:id': {
          const held = service.subscriptions.get(id as string);
          if (!held) return notFound();
          if (req.method === 'POST') held.paused = Boolean((body as { paused?: unknown }).paused);
          return reply(res, 200, subscription(id as string));
        }
        case 'DELETE webhook-subscriptions/:id':
          return service.subscriptions.delete(id as string) ? reply(res, 200) : notFound();
        case 'GET webhook-subscriptions/:id/webhooks':
          return reply(res, 200, page('webhooks', []));
        default:
          return notFound();
      }
    };

    const server = createServer((req, res) => {
      answer(req, res).catch(() => reply(res, 500, { code: 'ServerError', message: 'Stand-in failed.' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      baseUrl: origin,
      clientId: 'odd-client',
      clientSecret: 'odd-client-secret-value',
      profile: 'real',
      tokenUrl: `${origin}/token`,
      advanceClock: async () => undefined,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

function reply(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, body === undefined ? {} : { 'Content-Type': MEDIA_TYPE });
  res.end(body === undefined ? '' : JSON.stringify(body));
}
