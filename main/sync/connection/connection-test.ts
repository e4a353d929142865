import type { ConnectionTest } from '#contract/settings.ts';
import { connectionFailure, type FailureLog, isUnexpected } from '#main/data/failures.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { describeError } from '#main/ground/log/logger.ts';

/**
 * "Test connection": a fresh token (proves the base URL, the credentials and TLS), then one
 * API call with it (proves the media type and the token's use). Failures come back in words.
 */
export async function testConnection(client: ServiceClient, log: FailureLog): Promise<ConnectionTest> {
  try {
    client.token.invalidate();
    await client.token.get();
    await client.customers.list({ limit: 1 });
    const info = client.token.info();
    if (!info) return { ok: false, reason: 'unexpected', message: 'The service gave no token.' };
    return { ok: true, scope: info.scope, expiresAt: new Date(info.expiresAt).toISOString() };
  } catch (error) {
    if (isUnexpected(error)) log.error('testing the connection failed unexpectedly', describeError(error));
    return connectionFailure(error);
  }
}
