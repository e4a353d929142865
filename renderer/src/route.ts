import { SECTIONS } from '../../contract/queue.ts';
import type { SectionFilter } from './features/queue/queue-store.ts';

/** The app's places, each with an address in the URL's fragment: `#/queue/<section>/<customerId>`, `#/events`… */
export type View = 'queue' | 'draft' | 'events' | 'webhooks' | 'settings';
const VIEWS: readonly View[] = ['queue', 'draft', 'events', 'webhooks', 'settings'];

export interface Route {
  view: View;
  /** The queue's section (queue only). */
  section?: SectionFilter;
  /** The case open in the queue's right pane (queue only). */
  customerId?: string | null;
}

const isSection = (value: string): value is SectionFilter =>
  value === 'all' || (SECTIONS as readonly string[]).includes(value);

/** The route an address names; anything unknown (or the launch token's fragment) is the queue. */
export function parseRoute(hash: string): Route {
  const [view = '', section = '', id = ''] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (!(VIEWS as readonly string[]).includes(view) || view === 'queue') {
    return {
      view: 'queue',
      ...(isSection(section) ? { section } : {}),
      customerId: view === 'queue' && id ? id : null,
    };
  }
  return { view: view as View };
}

export function formatRoute(route: Route): string {
  if (route.view !== 'queue') return `#/${route.view}`;
  const section = encodeURIComponent(route.section ?? 'all');
  return route.customerId
    ? `#/queue/${section}/${encodeURIComponent(route.customerId)}`
    : `#/queue/${section}`;
}
