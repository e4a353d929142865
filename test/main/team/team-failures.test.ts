import pg from 'pg';
import { expect, test } from 'vitest';
import { TeamConnectionError } from '#main/team/store/connection-error.ts';
import { TeamSchemaError } from '#main/team/store/migrations/runner.ts';
import { teamAppError, teamFailure } from '#main/team/team-failures.ts';

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
    [withCode('28P01'), 'TeamWrongPassword', /refused the password for "alice"/],
    [withCode('28000'), 'TeamNoAccess', /does not let "alice" log in.*Ask your administrator\./],
    [withCode('3D000'), 'TeamNotAStore', /no database "vetted".*new join code/],
    [withCode('42501'), 'TeamNoAccess', /not a member of this team: ask your administrator\.$/],
    [withCode('SELF_SIGNED_CERT_IN_CHAIN'), 'TeamTls', /self-signed certificate/],
    [withCode('ERR_TLS_CERT_ALTNAME_INVALID'), 'TeamTls', /does not name db\.example\.test/],
    // localhost has two addresses: Node reports both refusals at once.
    [
      new AggregateError([withCode('ECONNREFUSED')], 'connect'),
      'TeamUnreachable',
      /db\.example\.test:5432 could not be reached.*Check your network/,
    ],
    [
      new Error('Connection terminated due to connection timeout'),
      'TeamUnreachable',
      /did not answer in time/,
    ],
    [withCode('53300'), 'TeamUnreachable', /cannot take connections now/],
    [new TeamSchemaError('This database is not a Vetted team store.'), 'TeamNotAStore', /not a Vetted team/],
  ];
  for (const [error, code, words] of cases) {
    const failure = teamFailure(error, connection);
    expect(failure.code, String(error)).toBe(code);
    expect(failure.message).toMatch(words);
  }
});

test('a refused password is told on the password field', () => {
  const failure = teamFailure(withCode('28P01'), connection);
  expect(failure.fields).toEqual({ '/password': failure.message });
});

test('what Vetted has no words for keeps its cause for the log, never in the message', () => {
  const odd = new Error('syntax error at or near "s3cret"');
  const failure = teamFailure(odd, connection);
  expect(failure.code).toBe('TeamFailed');
  expect(failure.message).not.toContain('s3cret');
  expect(failure.cause).toBe(odd);
});

test('a team failure that reaches a handler unworded answers in the same words; an unexpected one does not', () => {
  const refused = new TeamConnectionError('unreachable', 'The team store at h:1 did not answer in time.');
  expect(teamAppError(refused)).toEqual({
    code: 'TeamUnreachable',
    message: 'The team store at h:1 did not answer in time. Check your network (or VPN) and try again.',
  });
  expect(teamAppError(new TeamSchemaError('The team store is at schema 9.'))).toEqual({
    code: 'TeamNotAStore',
    message: 'The team store is at schema 9.',
  });
  expect(teamAppError(new TeamConnectionError('unexpected', 'odd: s3cret'))).toBeUndefined();
  expect(teamAppError(new Error('anything else'))).toBeUndefined();
});

test('a lead’s action the store refused reads as LeadOnly, in words', () => {
  const refused = Object.assign(
    new pg.DatabaseError('Only a lead of the team may do this (queue.exportNames).', 0, 'error'),
    {
      code: '42501',
      hint: 'vetted:lead-only',
    },
  );
  expect(teamAppError(refused)).toEqual({
    code: 'LeadOnly',
    message:
      'The team store refused this: only a lead may do it. Ask a lead of your team (your administrator makes leads).',
  });
});
