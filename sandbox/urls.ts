import type { App } from './types.ts';

/** Absolute URL of one of the sandbox's resources. */
export function urlOf(app: App, path: string): string {
  return `${app.baseUrl}${path}`;
}
