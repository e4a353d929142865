import { sendFailure, serviceFieldErrors } from '#main/data/failures.ts';
import type { OutboxEntry } from '#main/data/journal/index.ts';
import {
  type Customer,
  NetworkError,
  NotConfiguredError,
  ServiceError,
  TokenError,
} from '#main/data/service/index.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** The service keeps a key 24 h from its first use; an hour less leaves room for the two clocks to differ. */
export const KEY_TRUSTED_MS = 23 * HOUR_MS;
/** A customer the service created (by its clock) after our key existed, give or take the clocks, is ours. */
const CLOCK_SKEW_MS = 10 * MINUTE_MS;

export type Failure =
  | { kind: 'retry'; problem: string }
  | { kind: 'rejected'; problem: string; fields: Record<string, string>; duplicateOf: string | null }
  /** `processed`: the service may have acted on the request although it did not say so. */
  | { kind: 'attention'; problem: string; processed: boolean; unexpected?: boolean };

/** Sorts a failed send: send it again later, the form is wrong, or a person must look. */
export function classifyFailure(error: unknown): Failure {
  // No token means nothing was sent: the draft waits, whatever the token endpoint answered.
  if (error instanceof NetworkError || error instanceof NotConfiguredError || error instanceof TokenError) {
    return { kind: 'retry', problem: sendFailure.willResend(error) };
  }
  if (!(error instanceof ServiceError)) {
    return { kind: 'attention', problem: sendFailure.unexpected, processed: true, unexpected: true };
  }
  if (error.is('Conflict')) return { kind: 'retry', problem: sendFailure.stillWorking };
  // Refused credentials: every draft would fail alike, so they wait for Settings rather than each needing a click.
  if (error.status === 401) return { kind: 'retry', problem: sendFailure.credentialsRefused(error) };
  if (error.retryable) return { kind: 'retry', problem: sendFailure.willResend(error) };
  const keyReused = error.fields.some((field) => field.path === '/' || field.path === '');
  if (error.is('ValidationError') && error.fields.length > 0 && !keyReused) {
    const { fields, duplicateOf } = serviceFieldErrors(error, 'create');
    return { kind: 'rejected', problem: sendFailure.rejected(fields, duplicateOf), fields, duplicateOf };
  }
  return {
    kind: 'attention',
    problem: sendFailure.needsAttention(error, keyReused),
    processed: keyReused || error.status < 300,
  };
}

/** Past this age the service may have forgotten the key: a replay could create the customer a second time. */
export function keyMayBeForgotten(entry: OutboxEntry, now: Date): boolean {
  return now.getTime() - Date.parse(entry.keyCreatedAt) >= KEY_TRUSTED_MS;
}

/** A customer created after this draft's key existed (its e-mail being unique, the one we may have made). */
export function isOurs(customer: Customer, entry: OutboxEntry): boolean {
  return Date.parse(customer.created) >= Date.parse(entry.keyCreatedAt) - CLOCK_SKEW_MS;
}
