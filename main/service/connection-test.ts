import type { ConnectionTest } from '../../contract/settings.ts';
import { NetworkError, type ServiceClient, ServiceError } from './index.ts';

type Failure = Extract<ConnectionTest, { ok: false }>;

/**
 * "Test connection": a fresh token (proves the base URL, the credentials and TLS), then one
 * API call with it (proves the media type and the token's use). Failures come back in words.
 */
export async function testConnection(client: ServiceClient): Promise<ConnectionTest> {
  try {
    client.token.invalidate();
    await client.token.get();
    await client.customers.list({ limit: 1 });
    const info = client.token.info();
    if (!info) return { ok: false, reason: 'unexpected', message: 'The service gave no token.' };
    return { ok: true, scope: info.scope, expiresAt: new Date(info.expiresAt).toISOString() };
  } catch (error) {
    return describeConnectionFailure(error);
  }
}

export function describeConnectionFailure(error: unknown): Failure {
  if (error instanceof NetworkError) return networkFailure(error);
  if (error instanceof ServiceError) return serviceFailure(error);
  return {
    ok: false,
    reason: 'unexpected',
    message: 'Something unexpected went wrong; details are in the log.',
  };
}

function networkFailure(error: NetworkError): Failure {
  switch (error.kind) {
    case 'tls':
      return {
        ok: false,
        reason: 'tls',
        message: 'The secure connection failed: the service’s TLS certificate was not accepted.',
      };
    case 'timeout':
      return { ok: false, reason: 'timeout', message: 'The service did not answer in time.' };
    case 'dns':
      return {
        ok: false,
        reason: 'unreachable',
        message: 'The service’s host name could not be found. Check the base URL.',
      };
    default:
      return {
        ok: false,
        reason: 'unreachable',
        message: 'The service could not be reached. Check the base URL and your network.',
      };
  }
}

function serviceFailure(error: ServiceError): Failure {
  if (error.is('invalid_client') || error.is('InvalidCredentials') || error.status === 401) {
    return {
      ok: false,
      reason: 'bad-credentials',
      message: 'The service refused the client ID or the client secret.',
    };
  }
  if (error.is('InvalidVersion') || error.status === 406) {
    return {
      ok: false,
      reason: 'media-type',
      message: 'The service does not accept this API version (application/vnd.service.v1.hal+json).',
    };
  }
  if (error.status === 404 || error.status === 405) {
    return {
      ok: false,
      reason: 'unreachable',
      message: 'No token endpoint answers at this base URL. Check the base URL.',
    };
  }
  if (error.status === 429) {
    return {
      ok: false,
      reason: 'rate-limited',
      message: 'The service is rate limiting Vetted; try again in a minute.',
    };
  }
  if (error.status >= 500) {
    return {
      ok: false,
      reason: 'server',
      message: `The service had an internal error (HTTP ${error.status}).`,
    };
  }
  return { ok: false, reason: 'unexpected', message: `The service answered ${error.status} ${error.code}.` };
}
