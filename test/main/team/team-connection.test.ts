import net from 'node:net';
import { expect, test } from 'vitest';
import { teamTls } from '#main/team/store/pool.ts';
import { openTeamClient } from '#main/team/team-connection.ts';

const connection = { host: 'db.example.test', port: 5432, database: 'vetted', user: 'alice' };
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('verify-full checks the certificate against the code’s CA and the host name; disable means no TLS', () => {
  expect(teamTls({ ...connection, sslmode: 'verify-full', ca: CA })).toEqual({
    rejectUnauthorized: true,
    servername: 'db.example.test',
    ca: CA,
    checkServerIdentity: expect.any(Function),
  });
  // Without a CA in the code, the system's authorities vouch for the server; never an unchecked certificate.
  expect(teamTls({ ...connection, sslmode: 'verify-full' })).toEqual({
    rejectUnauthorized: true,
    servername: 'db.example.test',
    checkServerIdentity: expect.any(Function),
  });
  expect(teamTls({ ...connection, sslmode: 'disable' })).toBe(false);
});

test('an IP address is never sent as the TLS server name (Node refuses it), yet the certificate must name it', () => {
  const tls = teamTls({ ...connection, host: '10.0.0.7', sslmode: 'verify-full', ca: CA });
  expect(tls).not.toHaveProperty('servername');
  expect(tls).toMatchObject({ rejectUnauthorized: true, ca: CA });
});

test('the desk’s probe connection reports the network’s own error when nothing listens', async () => {
  const closed = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
  const attempt = openTeamClient(
    { ...connection, host: '127.0.0.1', port: closed, sslmode: 'disable' },
    'secret',
    5_000,
  );
  await expect(attempt).rejects.toMatchObject({ code: 'ECONNREFUSED' });
});
