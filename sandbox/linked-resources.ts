import { requireCustomer } from './customers.ts';
import { forbidden } from './errors.ts';
import type { Reply } from './reply.ts';
import type { RequestContext, Route } from './types.ts';

/**
 * Resources the service links to but does not describe (funding sources, transfers, the account).
 * The sandbox models a verification-only application: the paths exist, and its token is not
 * allowed to use them, which is the service's `403 Forbidden`.
 */
function forbiddenForCustomer(ctx: RequestContext): Reply {
  requireCustomer(ctx.app.store, ctx.params.id!);
  throw forbidden();
}

function forbiddenResource(): Reply {
  throw forbidden();
}

export function linkedResourceRoutes(): Route[] {
  const customerLinks = ['/customers/{id}/funding-sources', '/customers/{id}/transfers'];
  const routes: Route[] = [];
  for (const pattern of customerLinks) {
    for (const method of ['GET', 'POST']) routes.push({ method, pattern, handle: forbiddenForCustomer });
  }
  for (const method of ['GET', 'POST'])
    routes.push({ method, pattern: '/transfers', handle: forbiddenResource });
  routes.push({ method: 'GET', pattern: '/transfers/{id}', handle: forbiddenResource });
  routes.push({ method: 'GET', pattern: '/accounts/{id}', handle: forbiddenResource });
  return routes;
}
