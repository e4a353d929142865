import type { Route } from './types.ts';

/** Finds a request's route by method and path. `Route` is in types.ts, beside the app its handlers get. */

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
