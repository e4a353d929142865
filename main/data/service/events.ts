import { type Api, type ResourceRef, readAs, resourcePath, withQuery } from './api.ts';
import { eventPageSchema, eventSchema, type ServiceEvent } from './hal.ts';

export interface Paging {
  limit?: number;
  offset?: number;
}

export interface EventsApi {
  /** Newest first. */
  list(q: Paging): Promise<{ events: ServiceEvent[]; total: number }>;
  get(ref: ResourceRef): Promise<ServiceEvent>;
}

export function eventsApi(api: Api): EventsApi {
  return {
    async list({ limit, offset }) {
      const res = await api({ method: 'GET', path: withQuery('/events', { limit, offset }) });
      const page = readAs(eventPageSchema, res, 'event list');
      return { events: page._embedded.events, total: page.total ?? page._embedded.events.length };
    },
    async get(ref) {
      return readAs(eventSchema, await api({ method: 'GET', path: resourcePath('events', ref) }), 'event');
    },
  };
}
