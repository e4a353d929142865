import { expect, test } from 'vitest';
import { teamTls } from '../../main/team/team-connection.ts';

const connection = { host: 'db.example.test', port: 5432, database: 'vetted', user: 'alice' };
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('verify-full checks the certificate against the code’s CA and the host name; disable means no TLS', () => {
  expect(teamTls({ ...connection, sslmode: 'verify-full', ca: CA })).toEqual({
    rejectUnauthorized: true,
    servername: 'db.example.test',
    ca: CA,
  });
  // Without a CA in the code, the system's authorities vouch for the server; never an unchecked certificate.
  expect(teamTls({ ...connection, sslmode: 'verify-full' })).toEqual({
    rejectUnauthorized: true,
    servername: 'db.example.test',
  });
  expect(teamTls({ ...connection, sslmode: 'disable' })).toBe(false);
});
