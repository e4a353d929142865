import { customerResource, enterStatus, requireCustomer } from '../customers.ts';
import { forbidden, invalidResourceState } from '../errors.ts';
import { halReply, type Reply, resourceLink } from '../reply.ts';
import type { App, RequestContext, Route } from '../types.ts';
import { urlOf } from '../urls.ts';

/** Routes only the real profile has: the root resource, KBA's link target, and a control to deactivate. */
function root(ctx: RequestContext): Reply {
  const { app } = ctx;
  return halReply(200, {
    _links: {
      account: resourceLink(urlOf(app, `/accounts/${app.accountId}`), 'account'),
      customers: resourceLink(urlOf(app, '/customers'), 'customer'),
      events: resourceLink(urlOf(app, '/events'), 'event'),
      'webhook-subscriptions': resourceLink(urlOf(app, '/webhook-subscriptions'), 'webhook-subscription'),
    },
  });
}

/** The customer answers the questions with the service, not through this application: never allowed here. */
function kbaSession(ctx: RequestContext): Reply {
  requireCustomer(ctx.app.store, ctx.params.id!);
  throw forbidden();
}

/**
 * `POST /sandbox/customers/{id}/deactivate`: what an administrator does on the real service's
 * dashboard, so tests can reach `deactivated`. Emits `customer_deactivated`.
 */
function deactivate(ctx: RequestContext): Reply {
  const { app } = ctx;
  const customer = requireCustomer(app.store, ctx.params.id!);
  if (customer.status === 'deactivated') throw invalidResourceState();
  app.store.transaction(() => enterStatus(app, customer.id, 'deactivated'));
  return customerReply(app, customer.id);
}

const customerReply = (app: App, id: string): Reply =>
  halReply(200, customerResource(app, requireCustomer(app.store, id)));

export function realRoutes(): Route[] {
  return [
    { method: 'GET', pattern: '/', handle: root },
    { method: 'GET', pattern: '/customers/{id}/kba', handle: kbaSession },
    { method: 'POST', pattern: '/customers/{id}/kba', handle: kbaSession },
    { method: 'POST', pattern: '/sandbox/customers/{id}/deactivate', kind: 'control', handle: deactivate },
  ];
}
