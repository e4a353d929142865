import {
  type Api,
  createdResource,
  type ResourceRef,
  readAs,
  resourcePath,
  type WriteOptions,
  withQuery,
} from './api.ts';
import type { Paging } from './events.ts';
import {
  type Delivery,
  deliveryPageSchema,
  type Subscription,
  subscriptionPageSchema,
  subscriptionSchema,
} from './hal.ts';

export interface SubscriptionsApi {
  /** `secret` signs the webhooks; the service never returns it. */
  create(url: string, secret: string, opts?: WriteOptions): Promise<{ url: string; id: string }>;
  get(ref: ResourceRef): Promise<Subscription>;
  list(): Promise<Subscription[]>;
  setPaused(id: string, paused: boolean, opts?: WriteOptions): Promise<Subscription>;
  delete(id: string): Promise<void>;
  /**
   * The webhooks of a subscription, each with its delivery attempts; `startDate`/`endDate`
   * (YYYY-MM-DD) bound them by date where the service filters so (today's real service does).
   */
  deliveries(id: string, q?: DeliveryQuery): Promise<{ deliveries: Delivery[]; total: number }>;
  redeliver(webhookId: string, opts?: WriteOptions): Promise<{ url: string }>;
}

export interface DeliveryQuery extends Paging {
  startDate?: string;
  endDate?: string;
}

const path = (ref: ResourceRef) => resourcePath('webhook-subscriptions', ref);

export function subscriptionsApi(api: Api): SubscriptionsApi {
  return {
    async create(url, secret, opts = {}) {
      return createdResource(
        await api({ method: 'POST', path: '/webhook-subscriptions', json: { url, secret }, ...opts }),
      );
    },
    async get(ref) {
      return readAs(subscriptionSchema, await api({ method: 'GET', path: path(ref) }), 'subscription');
    },
    async list() {
      const res = await api({ method: 'GET', path: '/webhook-subscriptions' });
      return readAs(subscriptionPageSchema, res, 'subscription list')._embedded['webhook-subscriptions'];
    },
    async setPaused(id, paused, opts = {}) {
      const res = await api({ method: 'POST', path: path(id), json: { paused }, ...opts });
      return readAs(subscriptionSchema, res, 'subscription');
    },
    async delete(id) {
      await api({ method: 'DELETE', path: path(id) });
    },
    async deliveries(id, { limit, offset, startDate, endDate } = {}) {
      const query = { limit, offset, startDate, endDate };
      const res = await api({ method: 'GET', path: withQuery(`${path(id)}/webhooks`, query) });
      const page = readAs(deliveryPageSchema, res, 'delivery list');
      return { deliveries: page._embedded.webhooks, total: page.total ?? page._embedded.webhooks.length };
    },
    async redeliver(webhookId, opts = {}) {
      const res = await api({
        method: 'POST',
        path: `${resourcePath('webhooks', webhookId)}/retries`,
        ...opts,
      });
      return { url: createdResource(res).url };
    },
  };
}
