import { expect, test } from 'vitest';
import { decodeJoinCode, encodeJoinCode, JoinCodeError, newCodeUse } from '#main/team/join-code.ts';
import { createTeamKey, isTeamKey, teamKeyCheck } from '#main/team/team-key.ts';

const connection = {
  host: 'db.example.test',
  port: 5432,
  database: 'vetted_team',
  user: 'alice',
  sslmode: 'verify-full' as const,
  ca: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
};

test('a join code round-trips, survives line wrapping, and holds no password', () => {
  const teamKey = createTeamKey();
  const code = encodeJoinCode({ teamId: crypto.randomUUID(), connection, teamKey, use: newCodeUse() });
  const wrapped = code.replace(/(.{60})/g, '$1\n  ');
  const decoded = decodeJoinCode(wrapped);
  expect(decoded.connection).toEqual(connection);
  expect(decoded.teamKey.equals(teamKey)).toBe(true);
  expect(Buffer.from(code.split('.')[1] ?? '', 'base64url').toString()).not.toMatch(/password/i);
});

test('damaged, foreign and future codes are refused in words that never echo the code', () => {
  const code = encodeJoinCode({
    teamId: crypto.randomUUID(),
    connection,
    teamKey: createTeamKey(),
    use: newCodeUse(),
  });
  const cases: [string, RegExp][] = [
    [code.slice(0, code.length - 20), /damaged/],
    ['hello', /not a Vetted join code/],
    ['vetted-join-1.abc', /another version/],
    [`vetted-join-2.${Buffer.from('{"teamId":"x"}').toString('base64url')}`, /damaged/],
  ];
  for (const [text, message] of cases) {
    expect(() => decodeJoinCode(text)).toThrow(JoinCodeError);
    expect(() => decodeJoinCode(text)).toThrow(message);
    try {
      decodeJoinCode(text);
    } catch (error) {
      expect((error as Error).message).not.toContain(text.slice(14, 40) || '\u0000');
    }
  }
});

test('the key check tells the right team key from another', () => {
  const key = createTeamKey();
  const check = teamKeyCheck(key);
  expect(isTeamKey(key, check)).toBe(true);
  expect(isTeamKey(createTeamKey(), check)).toBe(false);
  expect(isTeamKey(key, 'short')).toBe(false);
});
