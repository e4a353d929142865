import { fieldValidationError } from './errors.ts';
import { type Link, resourceLink } from './reply.ts';
import type { App } from './types.ts';
import { urlOf } from './urls.ts';

export interface Page {
  limit: number;
  offset: number;
}

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 200;

/** `limit` (1..200, default 25) and `offset` (≥ 0, default 0) from a query; bad values are a ValidationError. */
export function pageOf(query: URLSearchParams): Page {
  const limit = integerParam(query, 'limit', DEFAULT_LIMIT);
  const offset = integerParam(query, 'offset', 0);
  const errors = [];
  if (limit === null || limit < 1 || limit > MAX_LIMIT) {
    errors.push({
      path: '/limit',
      code: 'Invalid' as const,
      message: `Limit must be an integer from 1 to ${MAX_LIMIT}.`,
    });
  }
  if (offset === null || offset < 0) {
    errors.push({
      path: '/offset',
      code: 'Invalid' as const,
      message: 'Offset must be a non-negative integer.',
    });
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return { limit: limit!, offset: offset! };
}

function integerParam(query: URLSearchParams, name: string, fallback: number): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/** `self`, `first`, `last` and, where they exist, `next` and `prev`, keeping the other query parameters. */
export function pageLinks(
  app: App,
  path: string,
  query: URLSearchParams,
  page: Page,
  total: number,
  resourceType: string,
): Record<string, Link> {
  const at = (offset: number): Link => {
    const params = new URLSearchParams(query);
    params.set('limit', String(page.limit));
    params.set('offset', String(offset));
    return resourceLink(urlOf(app, `${path}?${params}`), resourceType);
  };
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / page.limit) * page.limit;
  const links: Record<string, Link> = { self: at(page.offset), first: at(0), last: at(lastOffset) };
  if (page.offset + page.limit < total) links.next = at(page.offset + page.limit);
  if (page.offset > 0) links.prev = at(Math.max(0, page.offset - page.limit));
  return links;
}
