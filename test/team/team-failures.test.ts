import { expect, test } from 'vitest';
import { teamFailure } from '../../main/team/team-failures.ts';

const connection = {
  host: 'db.example.test',
  port: 5432,
  database: 'vetted',
  user: 'alice',
  sslmode: 'verify-full' as const,
};
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('each failure reads in words a reviewer can act on', () => {
  const cases: [unknown, string, RegExp][] = [
    [withCode('28P01'), 'TeamWrongPassword', /refused this password for alice/],
    [withCode('28000'), 'TeamNoAccess', /does not let alice in/],
    [withCode('3D000'), 'TeamNotAStore', /no database vetted/],
    [withCode('42501'), 'TeamNoAccess', /may not read the team store/],
    [withCode('SELF_SIGNED_CERT_IN_CHAIN'), 'TeamTls', /could not be verified/],
    [withCode('ERR_TLS_CERT_ALTNAME_INVALID'), 'TeamTls', /could not be verified/],
    // localhost has two addresses: Node reports both refusals at once.
    [new AggregateError([withCode('ECONNREFUSED')], 'connect'), 'TeamUnreachable', /could not reach/],
    [new Error('Connection terminated due to connection timeout'), 'TeamUnreachable', /could not reach/],
    [withCode('53300'), 'TeamUnreachable', /not taking connections/],
  ];
  for (const [error, code, words] of cases) {
    const failure = teamFailure(error, connection);
    expect(failure.code, String(error)).toBe(code);
    expect(failure.message).toMatch(words);
  }
});

test('what Vetted has no words for keeps its cause for the log, never in the message', () => {
  const odd = new Error('syntax error at or near "s3cret"');
  const failure = teamFailure(odd, connection);
  expect(failure.code).toBe('TeamFailed');
  expect(failure.message).not.toContain('s3cret');
  expect(failure.cause).toBe(odd);
});
