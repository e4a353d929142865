/**
 * Throughput of the sandbox's `GET /customers/{id}` (bearer check, SQLite read, HAL body) against a
 * bare node:http server answering the same bytes: same load generator, same process, same run.
 * Run: `node bench/sandbox.ts` (Node 24). Takes about 15 s.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { request } from 'undici';
import { startSandbox } from '../sandbox/index.ts';
import { samplePerson } from '../test/support/person.ts';

const HAL = 'application/vnd.service.v1.hal+json';
const DURATION_SECONDS = 5;
const WARMUP_SECONDS = 1;
const CONNECTIONS = 10;

async function tokenFor(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const res = await request(`${baseUrl}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
    }),
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}

async function createCustomer(baseUrl: string, token: string): Promise<string> {
  const res = await request(`${baseUrl}/customers`, {
    method: 'POST',
    headers: { accept: HAL, 'content-type': HAL, authorization: `Bearer ${token}` },
    body: JSON.stringify(samplePerson('Bench', 'Mark', 'bench@example.com')),
  });
  await res.body.dump();
  return String(res.headers.location);
}

function bareServer(body: Buffer): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': HAL, 'Content-Length': body.length }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/customers/fixed` });
    }),
  );
}

interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  failures: number;
}

async function measure(url: string, headers: Record<string, string>): Promise<Measured> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_SECONDS });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

const line = (name: string, m: Measured): string =>
  `${name.padEnd(28)} ${m.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${String(m.p99Ms).padStart(4)} ms   failures ${m.failures}\n`;

async function main(): Promise<void> {
  const sandbox = await startSandbox({ data: ':memory:' });
  const token = await tokenFor(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret);
  const customerUrl = await createCustomer(sandbox.baseUrl, token);
  const headers = { accept: HAL, authorization: `Bearer ${token}` };
  const sample = await request(customerUrl, { headers });
  const body = Buffer.from(await sample.body.arrayBuffer());
  const bare = await bareServer(body);
  try {
    const sandboxResult = await measure(customerUrl, headers);
    const bareResult = await measure(bare.url, headers);
    process.stdout.write(
      `GET /customers/{id}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s each (autocannon)\n`,
    );
    process.stdout.write(line('sandbox', sandboxResult));
    process.stdout.write(line('bare node:http, fixed body', bareResult));
    const ratio = sandboxResult.requestsPerSecond / bareResult.requestsPerSecond;
    process.stdout.write(`ratio sandbox / bare: ${ratio.toFixed(2)}\n`);
  } finally {
    bare.server.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
