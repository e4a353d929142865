import type { HttpRequest, Transport } from './http.ts';

/**
 * The two ways of asking for a token: today's real service (`POST {base}/token`, a form body and
 * HTTP Basic credentials) and the interface document's (`POST {base}/oauth/v2/token`, JSON).
 */
export type TokenForm = 'real' | 'document';
/**
 * Which service this is, as the form that got its token says: today's real service (`real`) or one
 * that follows the interface document (`document`). Where the two name a field differently on the
 * wire (the taxpayer number: `ssn` there, `tin` here), the client speaks the dialect of the form in
 * use: decided once per account (the setting, or what Automatic learned), never guessed per request.
 */
export type ServiceDialect = TokenForm;
/** The "Token endpoint" setting: one form, or Automatic (try the real one, fall back on the document's). */
export type TokenEndpointChoice = 'automatic' | TokenForm;

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** RFC 6749 §2.3.1: each part form-encoded before the Basic encoding, so a ':' in the id stays unambiguous. */
function basicAuthorization({ clientId, clientSecret }: Credentials): string {
  const part = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${part(clientId)}:${part(clientSecret)}`).toString('base64')}`;
}

/** The token request of one form. Built per call: nothing holding the secret outlives it but the closure. */
export function tokenRequest(transport: Transport, form: TokenForm, credentials: Credentials): HttpRequest {
  // Issuing a token changes nothing on the service (older tokens stay valid): safe to re-send.
  if (form === 'real') {
    const body = 'grant_type=client_credentials';
    return {
      method: 'POST',
      url: transport.resolve('/token'),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        Authorization: basicAuthorization(credentials),
      },
      body: () => body,
      retrySafe: true,
    };
  }
  const grant = JSON.stringify({
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    grant_type: 'client_credentials',
  });
  return {
    method: 'POST',
    url: transport.resolve('/oauth/v2/token'),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: () => grant,
    retrySafe: true,
  };
}

/** The OAuth error codes a token endpoint answers with (RFC 6749 §5.2): proof the endpoint is one. */
const OAUTH_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
]);

/**
 * Whether an answer says "no token endpoint of this form here" (so Automatic tries the other form)
 * rather than "this endpoint refuses you". 404 and 405 say it plainly; a 401 or 406 in the API's own
 * error vocabulary (no bearer token, not the HAL media type) comes from the API's gate in front of a
 * path that is not a token endpoint, as the interface document's service answers `/token`.
 */
export function isMissingEndpoint(status: number, code: string): boolean {
  if (status === 404 || status === 405) return true;
  if (status === 401 || status === 406) return !OAUTH_CODES.has(code.toLowerCase());
  return false;
}
