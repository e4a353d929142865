import { SECTIONS, type Section } from '#contract/queue.ts';

/** The queue's section as the address names it: one section, or the whole queue. */
export type SectionFilter = Section | 'all';

/**
 * The app's places, each with an address in the URL's fragment: `#/queue/<section>/<customerId>`, `#/events`…
 * `#/case/<customerId>` (a case link's address) opens the case in the whole queue.
 */
export type View = 'queue' | 'draft' | 'events' | 'webhooks' | 'audit' | 'team' | 'settings' | 'sandbox';
const VIEWS: readonly View[] = [
  'queue',
  'draft',
  'events',
  'webhooks',
  'audit',
  'team',
  'settings',
  'sandbox',
];

export interface Route {
  view: View;
  /** The queue's section (queue only). */
  section?: SectionFilter;
  /** The case open in the queue's right pane (queue only). */
  customerId?: string | null;
}

const isSection = (value: string): value is SectionFilter =>
  value === 'all' || (SECTIONS as readonly string[]).includes(value);

/**
 * The route an address names; anything unknown (or the launch token's fragment) is the queue. The draft
 * form's address names no draft, so opening it again (a reload) lands in the queue, where drafts are.
 */
export function parseRoute(hash: string): Route {
  const [view = '', section = '', id = ''] = hash.replace(/^#\/?/, '').split('/').map(decodedPart);
  // A case's own address, whatever its section (browser mode's equivalent of `vetted://case/<id>`).
  if (view === 'case' && section) return { view: 'queue', section: 'all', customerId: section };
  if (!(VIEWS as readonly string[]).includes(view) || view === 'queue' || view === 'draft') {
    return {
      view: 'queue',
      ...(isSection(section) ? { section } : {}),
      customerId: view === 'queue' && id ? id : null,
    };
  }
  return { view: view as View };
}

/** A part of the address as it was encoded; a malformed encoding (typed by hand) as it stands. */
function decodedPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function formatRoute(route: Route): string {
  if (route.view !== 'queue') return `#/${route.view}`;
  const section = encodeURIComponent(route.section ?? 'all');
  return route.customerId
    ? `#/queue/${section}/${encodeURIComponent(route.customerId)}`
    : `#/queue/${section}`;
}

// The address bar, where there is one: stores also run in unit tests, in Node, with no window.
const hasWindow = () => typeof window !== 'undefined';

export function currentHash(): string {
  return hasWindow() ? window.location.hash : '';
}

/** Puts the address in the history (back returns to the one before), or in place of the current one. */
export function writeHash(address: string, replace = false): void {
  if (!hasWindow() || address === window.location.hash) return;
  if (replace) history.replaceState(history.state, '', address);
  else history.pushState(history.state, '', address);
}

/** Calls `follow` when the address changes by back, forward or typing. Returns the stop. */
export function onAddressChange(follow: () => void): () => void {
  if (!hasWindow()) return () => {};
  window.addEventListener('popstate', follow);
  window.addEventListener('hashchange', follow);
  return () => {
    window.removeEventListener('popstate', follow);
    window.removeEventListener('hashchange', follow);
  };
}
