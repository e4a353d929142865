import type { IncomingHttpHeaders } from 'node:http';
import type { App } from './app.ts';
import type { FormPart } from './multipart.ts';
import type { Reply } from './reply.ts';

/**
 * - `api`: the service's API: versioned Accept and a bearer token.
 * - `token`: the OAuth token endpoint: no token, OAuth-style errors.
 * - `control`: the sandbox's own `/sandbox/*` routes: a bearer token, any Accept, never faulted.
 */
export type RouteKind = 'api' | 'token' | 'control';

/**
 * - `none`: any body is read and ignored.
 * - `json`: a JSON object in `ctx.json` (415 for another media type, 400 when broken, 413 when huge).
 * - `multipart`: multipart/form-data parts in `ctx.parts`.
 * - `raw`: bytes in `ctx.raw` for the handler to interpret (the token endpoint).
 */
export type BodyMode = 'none' | 'json' | 'multipart' | 'raw';

export interface RequestContext {
  app: App;
  requestId: string;
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  json: unknown;
  parts: FormPart[];
  raw: Buffer;
  /** Only for `raw` bodies, which the handler rejects itself when too long. */
  rawTooLarge: boolean;
}

export interface Route {
  method: string;
  /** Path with `{name}` placeholders, e.g. `/customers/{id}`. */
  pattern: string;
  kind?: RouteKind;
  body?: BodyMode;
  /** Largest body kept, in bytes; default 1 MiB. */
  bodyLimit?: number;
  handle(ctx: RequestContext): Reply | Promise<Reply>;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
}

export interface RouteMatch {
  route?: Route;
  params: Record<string, string>;
  /** Methods of the routes whose pattern fits the path; empty when the path is unknown. */
  allowed: string[];
}

export class Router {
  readonly #routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.#routes = routes.map((route) => ({ route, segments: route.pattern.split('/') }));
  }

  match(method: string, path: string): RouteMatch {
    const segments = path.split('/');
    const allowed: string[] = [];
    for (const compiled of this.#routes) {
      const params = matchSegments(compiled.segments, segments);
      if (!params) continue;
      if (compiled.route.method === method) return { route: compiled.route, params, allowed: [method] };
      allowed.push(compiled.route.method);
    }
    return { params: {}, allowed };
  }
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const segment = actual[i]!;
    if (expected.startsWith('{') && expected.endsWith('}')) {
      if (segment === '') return null;
      params[expected.slice(1, -1)] = safeDecode(segment);
    } else if (expected !== segment) {
      return null;
    }
  }
  return params;
}

// A malformed escape cannot name a resource; keeping it raw makes the lookup answer 404.
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function routeName(route: Route): string {
  return `${route.method} ${route.pattern}`;
}
