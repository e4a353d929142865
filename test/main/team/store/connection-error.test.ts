import { expect, test } from 'vitest';
import { scrub, teamConnectionError } from '#main/team/store/connection-error.ts';

const target = { host: 'db.example.org', port: 5432, database: 'vetted', user: 'alice' };
const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

test.each([
  ['28P01', 'auth', 'The team store refused the password for "alice": check the password.'],
  ['28000', 'auth', /does not let "alice" log in/],
  ['42501', 'auth', /not a member of this team/],
  ['3D000', 'database', 'There is no database "vetted" at db.example.org:5432.'],
  ['ECONNREFUSED', 'unreachable', /db\.example\.org:5432 could not be reached/],
  ['ENOTFOUND', 'unreachable', 'The host name db.example.org could not be found: check the host.'],
  ['ETIMEDOUT', 'unreachable', /did not answer in time/],
  ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls', /self-signed certificate/],
  ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls', /authority \(CA\) this connection does not trust/],
  ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls', /does not name db\.example\.org:/],
  ['CERT_HAS_EXPIRED', 'tls', /expired/],
  ['57P03', 'server', /cannot take connections now/],
  ['ENOWRITABLE', 'unreachable', /^failed$/],
] as const)('%s is a %s failure in words', (code, kind, words) => {
  const error = teamConnectionError(withCode(code), target);
  expect(error.kind).toBe(kind);
  expect(error.message).toMatch(words);
});

test('a server without TLS, and connecting several addresses at once (AggregateError), are recognised', () => {
  expect(teamConnectionError(new Error('The server does not support SSL connections'), target).kind).toBe(
    'tls',
  );
  const both = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed');
  expect(teamConnectionError(both, target).kind).toBe('unreachable');
});

test('an unexpected failure keeps its text, with the password scrubbed (plain and URL-encoded)', () => {
  const password = 'p@ss/word+secret';
  const error = teamConnectionError(
    new Error(`odd: ${password} and ${encodeURIComponent(password)}`),
    target,
    [password],
  );
  expect(error.kind).toBe('unexpected');
  expect(error.message).not.toContain(password);
  expect(error.message).not.toContain(encodeURIComponent(password));
  expect(scrub('a secret b', ['secret'])).toBe('a *** b');
});

test('only a refused or missing password marks the password as what is wrong', () => {
  expect(teamConnectionError(withCode('28P01'), target).passwordRefused).toBe(true);
  expect(teamConnectionError(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE'), target).passwordRefused).toBe(
    true,
  );
  expect(teamConnectionError(withCode('28000'), target).passwordRefused).toBe(false);
  expect(teamConnectionError(withCode('42501'), target).passwordRefused).toBe(false);
});
