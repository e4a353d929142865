import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { serverError, serviceError } from './errors.ts';
import type { Reply } from './reply.ts';

/**
 * Injected failures, for testing clients against a flaky service. `429` and `503` answer before
 * any work is done; `500` and `reset` answer after the work is done and committed, so to the
 * client they are a lost response (an Idempotency-Key replay then returns the real result);
 * `delay` holds the request before doing its work (a duplicate sent meanwhile meets 409) until
 * `delayMs` has passed or the faults are set again, whichever comes first: a test sets a long
 * delay, waits until `GET /sandbox/stats` counts the request as held, and releases it by
 * setting the faults again — no race between a sleep in the test and one in the sandbox.
 */
export const FAULT_KINDS = ['500', '503', '429', 'reset', 'delay'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultConfigSchema = z.object({
  rate: z.number().min(0).max(1),
  kinds: z
    .array(z.enum(FAULT_KINDS))
    .min(1)
    .default([...FAULT_KINDS]),
  /** Exact paths, route patterns (`/customers/{id}`) or prefixes ending in `*`; empty = every API path. */
  paths: z.array(z.string().min(1)).default([]),
  delayMs: z.int().min(0).max(60_000).default(2_000),
});

export type FaultConfig = z.infer<typeof faultConfigSchema>;

const NO_FAULTS: FaultConfig = { rate: 0, kinds: [...FAULT_KINDS], paths: [], delayMs: 2_000 };

export class Faults {
  #config: FaultConfig = NO_FAULTS;
  readonly #random: () => number;
  #release = new AbortController();
  #held = 0;

  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  get config(): FaultConfig {
    return this.#config;
  }

  set(config: FaultConfig): void {
    this.#config = config.rate === 0 ? { ...NO_FAULTS } : config;
    this.#release.abort();
    this.#release = new AbortController();
  }

  /** Requests held by a `delay` fault right now. */
  get held(): number {
    return this.#held;
  }

  /** Holds a request for `delayMs`, or until the faults are set again, or until `closing` (which rejects). */
  async hold(closing: AbortSignal): Promise<void> {
    const release = this.#release.signal;
    this.#held++;
    try {
      await sleep(this.#config.delayMs, undefined, {
        signal: AbortSignal.any([closing, release]),
        ref: false,
      });
    } catch (error) {
      if (closing.aborted || !release.aborted) throw error;
    } finally {
      this.#held--;
    }
  }

  /** The fault to inflict on this request, if any. */
  pick(pattern: string, path: string): FaultKind | null {
    const { rate, kinds, paths } = this.#config;
    if (rate === 0 || !appliesTo(paths, pattern, path)) return null;
    if (this.#random() >= rate) return null;
    return kinds[Math.floor(this.#random() * kinds.length)] ?? null;
  }
}

function appliesTo(paths: readonly string[], pattern: string, path: string): boolean {
  if (paths.length === 0) return true;
  return paths.some(
    (entry) =>
      entry === path || entry === pattern || (entry.endsWith('*') && path.startsWith(entry.slice(0, -1))),
  );
}

/** The answer for the faults that answer with a status; `reset` and `delay` have none. */
export function faultReply(kind: '500' | '503' | '429', requestId: string): Reply {
  if (kind === '429') {
    return serviceError(429, 'TooManyRequests', 'Too many requests. Back off and retry later.', {
      'Retry-After': '1',
    }).toReply();
  }
  if (kind === '503') {
    return serviceError(
      503,
      'ServiceUnavailable',
      'The service is temporarily unavailable. Retry later.',
    ).toReply();
  }
  return serverError(requestId).toReply();
}
