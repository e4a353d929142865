/**
 * Throughput of the sandbox's `GET /customers/{id}` (bearer check, SQLite read, HAL body) against a
 * bare node:http server answering the same bytes: the load generator in a process of its own, samples
 * interleaved (bare, sandbox, × 3), medians compared. No goal: a baseline for the other benches.
 * Run: `node bench/sandbox.ts` (Node 24). Takes about 40 s.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startSandbox } from '#sandbox/index.ts';
import { samplePerson } from '#test/support/person.ts';
import { runLoad } from './support/load.ts';
import { loadNote } from './support/machine.ts';
import { interleave, printResult, round3 } from './support/protocol.ts';

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

const measure = async (url: string, headers: Record<string, string>): Promise<number> => {
  const outcome = await runLoad({
    url,
    headers,
    connections: CONNECTIONS,
    seconds: DURATION_SECONDS,
    warmupSeconds: WARMUP_SECONDS,
  });
  if (outcome.non2xx + outcome.errors > 0) throw new Error(`${outcome.non2xx + outcome.errors} failures`);
  return outcome.perSecond;
};

async function main(): Promise<void> {
  const sandbox = await startSandbox({ data: ':memory:' });
  const token = await tokenFor(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret);
  const customerUrl = await createCustomer(sandbox.baseUrl, token);
  const headers = { accept: HAL, authorization: `Bearer ${token}` };
  const sample = await request(customerUrl, { headers });
  const body = Buffer.from(await sample.body.arrayBuffer());
  const bare = await bareServer(body);
  try {
    const result = await interleave(
      3,
      () => measure(bare.url, headers),
      () => measure(customerUrl, headers),
    );
    const ratio = result.subjectMedian / result.baselineMedian;
    process.stdout.write(
      `GET /customers/{id}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per sample; ${loadNote()}\n` +
        `bare ${result.baseline.map((v) => v.toFixed(0)).join(', ')} req/s; sandbox ${result.subject.map((v) => v.toFixed(0)).join(', ')} req/s\n` +
        `ratio of medians sandbox / bare: ${ratio.toFixed(2)}\n`,
    );
    printResult([
      {
        figure: 'sandbox GET /customers/{id} vs bare node:http (a baseline, no goal)',
        goal: '—',
        measured: `${ratio.toFixed(2)} (${result.subjectMedian.toFixed(0)} vs ${result.baselineMedian.toFixed(0)}/s)`,
        ratio: round3(ratio),
        verdict: 'pass',
      },
    ]);
  } finally {
    bare.server.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
