import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionFailure } from '#main/data/failures.ts';
import { createServiceClient, NetworkError } from '#main/data/service/index.ts';
import { CaBundleError, loadCaBundle } from '#main/data/service/network.ts';
import { startConnectProxy, type TestProxy } from '#test/support/network/connect-proxy.ts';
import { makeSelfSigned } from '#test/support/network/test-certs.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  customerBody,
  type FakeService,
  reply,
  startFakeService,
} from './fake-service.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A self-signed certificate for `altName`, made with the openssl CLI for this run only. */
function selfSigned(name: string, altName: string): { key: string; cert: string; file: string } {
  const made = makeSelfSigned(dir, name, [`subjectAltName=${altName}`]);
  return { key: readFileSync(made.keyFile, 'utf8'), cert: made.pem, file: made.certFile };
}

async function httpsService(key: string, cert: string): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer({ key, cert }, (req, res) => {
    if (req.url === '/oauth/v2/token') {
      return reply(res, 200, { access_token: 'tls-token', token_type: 'bearer', expires_in: 3600 });
    }
    reply(res, 200, customerBody('https://127.0.0.1', 'c1'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const clientFor = (baseUrl: string, network: Parameters<typeof createServiceClient>[0]['network']) =>
  createServiceClient({
    baseUrl,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenEndpoint: 'document',
    retry: { maxAttempts: 1 },
    network,
  });

describe('an extra CA bundle, for a TLS-inspecting proxy', () => {
  let good: ReturnType<typeof selfSigned>;
  let service: Awaited<ReturnType<typeof httpsService>>;
  beforeAll(async () => {
    good = selfSigned('vetted-test-ca', 'IP:127.0.0.1,DNS:localhost');
    service = await httpsService(good.key, good.cert);
  });
  afterAll(() => new Promise((resolve) => service.server.close(resolve)));

  it('without it, a self-signed certificate is refused, and said so in words', async () => {
    const client = clientFor(service.baseUrl, { proxy: false });
    const error = await client.customers.get('c1').catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'tls' });
    expect(connectionFailure(error).message).toMatch(/self-signed.*CA bundle in Settings/);
  });

  it('with it, the same service is trusted', async () => {
    const client = clientFor(service.baseUrl, { proxy: false, extraCa: loadCaBundle(good.file) });
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
  });

  it('a certificate for another host name is refused as such, even from a trusted authority', async () => {
    const other = selfSigned('elsewhere', 'DNS:elsewhere.example');
    const elsewhere = await httpsService(other.key, other.cert);
    const client = clientFor(elsewhere.baseUrl, { proxy: false, extraCa: loadCaBundle(other.file) });
    const error = await client.customers.get('c1').catch((e: unknown) => e);
    await client.close();
    await new Promise((resolve) => elsewhere.server.close(resolve));
    expect(connectionFailure(error).message).toMatch(/another host name/);
  });

  it('a bundle that is missing or not PEM is refused with a clear reason', () => {
    expect(() => loadCaBundle(path.join(dir, 'nowhere.pem'))).toThrow(/no such file/);
    const notPem = path.join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    expect(() => loadCaBundle(notPem)).toThrow(CaBundleError);
    expect(() => loadCaBundle(notPem)).toThrow(/holds no PEM certificate/);
    const damaged = path.join(dir, 'damaged.pem');
    writeFileSync(damaged, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(() => loadCaBundle(damaged)).toThrow(/damaged/);
  });
});

describe('a proxy from the environment', () => {
  let proxy: TestProxy;
  let fake: FakeService;
  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
  beforeAll(async () => {
    proxy = await startConnectProxy();
    fake = await startFakeService();
    fake.route('GET', '/customers/c1', (_req, res) => reply(res, 200, customerBody(fake.baseUrl, 'c1')));
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  afterAll(async () => {
    await proxy.close();
    await fake.close();
  });

  it('HTTP_PROXY: every request goes through the proxy', async () => {
    process.env.HTTP_PROXY = proxy.url;
    delete process.env.NO_PROXY;
    const client = clientFor(fake.baseUrl, { proxy: true });
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
    const host = new URL(fake.baseUrl).host;
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((line) => line.includes(host))).toBe(true);
  });

  it('NO_PROXY: the host named there is reached directly', async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = '127.0.0.1';
    const before = proxy.seen.length;
    const client = clientFor(fake.baseUrl, { proxy: true });
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
    expect(proxy.seen.length).toBe(before);
  });
});
