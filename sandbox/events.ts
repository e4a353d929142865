import { randomUUID } from 'node:crypto';
import { isoTime } from './clock.ts';
import { notFound } from './errors.ts';
import type { EventRow, Topic } from './event-row.ts';
import { pageLinks, pageOf } from './pagination.ts';
import { halReply, type Reply, resourceLink } from './reply.ts';
import type { App, RequestContext, Route } from './types.ts';
import { urlOf } from './urls.ts';
import { queueWebhooks } from './webhooks.ts';

/** Every state change is an event (service-facts.md §6); events carry no personal data. */

const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface EventSubject {
  topic: Topic;
  customerId: string;
  /** The document, for document events; the customer otherwise. */
  documentId?: string;
}

/** Stores the event and queues a webhook for every subscription; call inside the change's transaction. */
export function recordEvent(app: App, subject: EventSubject): void {
  const event: EventRow = {
    id: randomUUID(),
    topic: subject.topic,
    resource_type: subject.documentId ? 'document' : 'customer',
    resource_id: subject.documentId ?? subject.customerId,
    customer_id: subject.customerId,
    created_ms: app.clock.now(),
  };
  app.store.run(
    'INSERT INTO events (id, topic, resource_type, resource_id, customer_id, created_ms) VALUES (?, ?, ?, ?, ?, ?)',
    event.id,
    event.topic,
    event.resource_type,
    event.resource_id,
    event.customer_id,
    event.created_ms,
  );
  queueWebhooks(app, event);
}

/** The event resource, which is also the body of its webhooks. */
export function eventResource(app: App, event: EventRow): Record<string, unknown> {
  const resourcePath = `/${event.resource_type}s/${event.resource_id}`;
  const created = isoTime(event.created_ms);
  return {
    _links: {
      self: resourceLink(urlOf(app, `/events/${event.id}`), 'event'),
      account: resourceLink(urlOf(app, `/accounts/${app.accountId}`), 'account'),
      resource: resourceLink(urlOf(app, resourcePath), event.resource_type),
      customer: resourceLink(urlOf(app, `/customers/${event.customer_id}`), 'customer'),
    },
    id: event.id,
    created,
    timestamp: created,
    topic: event.topic,
    resourceId: event.resource_id,
  };
}

export function findEvent(app: App, id: string): EventRow | undefined {
  return app.store.get<EventRow>('SELECT * FROM events WHERE id = ?', id);
}

function listEvents(ctx: RequestContext): Reply {
  const { app, query } = ctx;
  const page = pageOf(query);
  const since = app.clock.now() - RETENTION_MS;
  const total =
    app.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM events WHERE created_ms > ?', since)?.n ?? 0;
  const events = app.store.all<EventRow>(
    'SELECT * FROM events WHERE created_ms > ? ORDER BY seq DESC LIMIT ? OFFSET ?',
    since,
    page.limit,
    page.offset,
  );
  return halReply(200, {
    _links: pageLinks(app, '/events', query, page, total, 'event'),
    _embedded: { events: events.map((event) => eventResource(app, event)) },
    total,
  });
}

function getEvent(ctx: RequestContext): Reply {
  const event = findEvent(ctx.app, ctx.params.id!);
  if (!event || event.created_ms <= ctx.app.clock.now() - RETENTION_MS) throw notFound('Event not found.');
  return halReply(200, eventResource(ctx.app, event));
}

export function eventRoutes(): Route[] {
  return [
    { method: 'GET', pattern: '/events', handle: listEvents },
    { method: 'GET', pattern: '/events/{id}', handle: getEvent },
  ];
}
