import type { Clock, Scheduler } from './clock.ts';
import type { Faults } from './faults.ts';
import type { Profile } from './profiles/index.ts';
import type { SandboxSecrets } from './secrets.ts';
import type { Stats } from './stats.ts';
import type { Store } from './store.ts';

/** What every handler and background job of one running sandbox shares. */
export interface App {
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  /** `http://127.0.0.1:<port>`, known once the server listens. */
  baseUrl: string;
  /** The application's own account, linked from every event. */
  accountId: string;
  clientId: string;
  clientSecret: string;
  /** Seals secrets at rest in the store. */
  secrets: SandboxSecrets;
  reviewDelayMs: number;
  tokenTtlSeconds: number;
  deliveryTimeoutMs: number;
  faults: Faults;
  /** The interface document's behaviour, or today's real service's. */
  profile: Profile;
  stats: Stats;
  /** Problems the sandbox meets on its own (a failed background job); never secrets. */
  log(line: string): void;
  /** One line per request, when asked for. */
  requestLog: ((line: string) => void) | null;
  /** Aborted when the sandbox closes: pending waits end, in-flight work is dropped. */
  closing: AbortSignal;
}

/** Absolute URL of one of the sandbox's resources. */
export function urlOf(app: App, path: string): string {
  return `${app.baseUrl}${path}`;
}
