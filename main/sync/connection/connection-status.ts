import type { ConnectionState, ServiceMode, ServiceStatus } from '#contract/settings.ts';
import { connectionFailure, rateLimitedUntilText } from '#main/data/failures.ts';
import type { CallOutcome } from '#main/data/service/client.ts';
import { NetworkError, ServiceError, TokenError } from '#main/data/service/errors.ts';

const STATUS_REFRESH_MS = 10_000;

/**
 * Online once anything succeeds; offline on a network failure; auth failed when no token comes (a
 * token failure is never "online", whatever its status); rate limited, with the next try, on a 429.
 */
export function statusTracker(mode: ServiceMode, baseUrl: string, onStatus: (status: ServiceStatus) => void) {
  let status: ServiceStatus = { mode, baseUrl, state: 'connecting', lastSuccessAt: null, detail: null };
  let lastTold = 0;
  const update = (state: ConnectionState, detail: string | null, succeeded: boolean, retryAt?: number) => {
    const now = Date.now();
    const changed = state !== status.state || detail !== status.detail;
    status = {
      ...status,
      state,
      detail,
      lastSuccessAt: succeeded ? new Date(now).toISOString() : status.lastSuccessAt,
      retryAt: retryAt === undefined ? null : new Date(retryAt).toISOString(),
    };
    // Every change is told at once; a run of successes only refreshes "last answer" now and then.
    if (changed || now - lastTold >= STATUS_REFRESH_MS) {
      lastTold = now;
      onStatus(status);
    }
  };
  return {
    current: () => status,
    record(outcome: CallOutcome) {
      if (outcome.ok) return update('online', null, true);
      const { error } = outcome;
      if (error instanceof ServiceError && error.status === 429 && outcome.rateLimitedUntil) {
        const until = outcome.rateLimitedUntil;
        return update('rate-limited', rateLimitedUntilText(until), false, until);
      }
      if (error instanceof TokenError) {
        // Even the token endpoint may say "slow down": that is no refusal of the credentials.
        const state = error.status === 429 ? 'rate-limited' : 'auth-failed';
        return update(state, connectionFailure(error).message, false);
      }
      if (error instanceof NetworkError) {
        if (error.kind === 'aborted') return;
        return update('offline', connectionFailure(error).message, false);
      }
      if (error instanceof ServiceError && (error.status === 401 || error.is('invalid_client'))) {
        return update('auth-failed', connectionFailure(error).message, false);
      }
      // Any other answer still proves the service is reachable.
      update('online', null, true);
    },
  };
}
