import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { serverError, serviceError } from './errors.ts';
import type { Reply } from './reply.ts';

/**
 * Injected failures, for testing clients against a flaky service. `429`, `503` and the 401s
 * answer before any work is done; `500`, `RequestTimeout` and `reset` answer after the work is
 * done and committed, so to the client they are a lost response (an Idempotency-Key replay then
 * returns the real result); `delay` holds the request before doing its work (a duplicate sent
 * meanwhile meets 409) until `delayMs` has passed or the faults are set again, whichever comes
 * first: a test sets a long delay, waits until `GET /sandbox/stats` counts the request as held,
 * and releases it by setting the faults again — no race between a sleep in the test and one in
 * the sandbox. `count` ends the faults after that many faulted requests, `forSeconds` once that
 * much time has passed on the sandbox clock (a rate limit that lasts minutes); without either,
 * they last until set again.
 */
export const FAULT_KINDS = ['500', '503', '429', 'reset', 'delay'] as const;
/** The real service's own failures (real-service.md), injected only in the real profile. */
export const REAL_FAULT_KINDS = [
  'InvalidAccountStatus',
  'InvalidApplicationStatus',
  'InvalidScopes',
  'RequestTimeout',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number] | (typeof REAL_FAULT_KINDS)[number];

export const faultConfigSchema = z.object({
  rate: z.number().min(0).max(1),
  kinds: z
    .array(z.enum([...FAULT_KINDS, ...REAL_FAULT_KINDS]))
    .min(1)
    .default([...FAULT_KINDS]),
  /** Exact paths, route patterns (`/customers/{id}`) or prefixes ending in `*`; empty = every API path. */
  paths: z.array(z.string().min(1)).default([]),
  delayMs: z.int().min(0).max(60_000).default(2_000),
  count: z.int().min(1).optional(),
  forSeconds: z
    .number()
    .positive()
    .max(366 * 24 * 60 * 60)
    .optional(),
});

export type FaultConfig = z.infer<typeof faultConfigSchema>;

const NO_FAULTS: FaultConfig = { rate: 0, kinds: [...FAULT_KINDS], paths: [], delayMs: 2_000 };

export class Faults {
  #config: FaultConfig = NO_FAULTS;
  #remaining: number | undefined;
  #untilMs: number | undefined;
  readonly #random: () => number;
  #release = new AbortController();
  #held = 0;

  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  /**
   * As set, at `now` on the sandbox clock (faults past their `until` are over): with `count` the
   * faults still to come, with `until` when they end.
   */
  configAt(now: number): FaultConfig & { until?: string } {
    this.#expire(now);
    return {
      ...this.#config,
      ...(this.#remaining !== undefined ? { count: this.#remaining } : {}),
      ...(this.#untilMs !== undefined ? { until: new Date(this.#untilMs).toISOString() } : {}),
    };
  }

  /** `now` is the sandbox clock, from which `forSeconds` counts. */
  set(config: FaultConfig, now: number): void {
    this.#config = config.rate === 0 ? { ...NO_FAULTS } : config;
    this.#remaining = config.rate === 0 ? undefined : config.count;
    this.#untilMs =
      config.rate === 0 || config.forSeconds === undefined ? undefined : now + config.forSeconds * 1000;
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

  /** The fault to inflict on this request, if any; `now` is the sandbox clock. */
  pick(pattern: string, path: string, now: number): FaultKind | null {
    this.#expire(now);
    const { rate, kinds, paths } = this.#config;
    if (rate === 0 || !appliesTo(paths, pattern, path)) return null;
    if (this.#random() >= rate) return null;
    const kind = kinds[Math.floor(this.#random() * kinds.length)] ?? null;
    if (kind !== null && this.#remaining !== undefined && --this.#remaining === 0) this.#clear();
    return kind;
  }

  #expire(now: number): void {
    if (this.#untilMs !== undefined && now >= this.#untilMs) this.#clear();
  }

  // Ends the faults without releasing held requests: they keep their own delay.
  #clear(): void {
    this.#config = { ...NO_FAULTS };
    this.#remaining = undefined;
    this.#untilMs = undefined;
  }
}

function appliesTo(paths: readonly string[], pattern: string, path: string): boolean {
  if (paths.length === 0) return true;
  return paths.some(
    (entry) =>
      entry === path || entry === pattern || (entry.endsWith('*') && path.startsWith(entry.slice(0, -1))),
  );
}

export type ReplyingFault = Exclude<FaultKind, 'reset' | 'delay'>;
type LostResponse = '500' | 'RequestTimeout';

/** A fault that answers after the work is done: to the client, a lost response. */
export const answersAfterWork = (kind: FaultKind | null): kind is LostResponse =>
  kind === '500' || kind === 'RequestTimeout';

/** A fault that answers instead of doing the work. */
export const answersBeforeWork = (kind: FaultKind | null): kind is Exclude<ReplyingFault, LostResponse> =>
  kind !== null && kind !== 'reset' && kind !== 'delay' && !answersAfterWork(kind);

const UNAUTHORIZED_MESSAGES = {
  InvalidAccountStatus: 'Invalid account status.',
  InvalidApplicationStatus: 'Invalid application status.',
  InvalidScopes: 'Missing or invalid scopes for requested endpoint.',
} as const;

/** The answer for the faults that answer with a status; a 429 carries `tooManyRequestsHeaders`. */
export function faultReply(
  kind: ReplyingFault,
  requestId: string,
  tooManyRequestsHeaders: Record<string, string> = { 'Retry-After': '1' },
): Reply {
  if (kind === '429') {
    return serviceError(
      429,
      'TooManyRequests',
      'Too many requests. Back off and retry later.',
      tooManyRequestsHeaders,
    ).toReply();
  }
  if (kind === '503') {
    return serviceError(
      503,
      'ServiceUnavailable',
      'The service is temporarily unavailable. Retry later.',
    ).toReply();
  }
  if (kind === 'RequestTimeout') return serviceError(500, 'RequestTimeout', 'Request timeout.').toReply();
  if (kind === '500') return serverError(requestId).toReply();
  return serviceError(401, kind, UNAUTHORIZED_MESSAGES[kind]).toReply();
}
