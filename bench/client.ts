/**
 * The service client against a bare undici Pool: 2,000 `GET /customers/{id}` at concurrency 16
 * each, against the built-in sandbox over loopback. Prints the client's throughput as a ratio of
 * the bare pool's (goal ≥ 0.9) and the number of tokens the sandbox issued (goal: 1).
 *
 * The sandbox runs in a worker thread, as the real service runs elsewhere: the figure is what the
 * client costs its caller. `--in-process` puts the sandbox on the same thread instead, where any
 * CPU the client spends is also taken from the server (a stricter, noisier figure).
 *
 *   node bench/client.ts [--requests 2000] [--concurrency 16] [--rounds 9] [--in-process]
 */

import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { createServiceClient, HAL_MEDIA_TYPE, type ServiceClient } from '#main/data/service/index.ts';
import { startSandbox } from '#sandbox/index.ts';
import { samplePerson } from '#test/support/person.ts';
import { loadNote } from './support/machine.ts';
import { atLeast, atMost, median, printResult } from './support/protocol.ts';
import { type SandboxHandle, sandboxInWorker } from './support/sandbox-worker.ts';

/** Runs `task(i)` for i < total with at most `concurrency` at once; returns requests per second. */
async function throughput(total: number, concurrency: number, task: (i: number) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < total) await task(next++);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return total / ((performance.now() - started) / 1000);
}

async function createCustomers(client: ServiceClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { id } = await client.customers.create(
      samplePerson('Bench', `Customer${i}`, `bench-${i}@example.com`),
    );
    ids.push(id);
  }
  return ids;
}

async function main() {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '16' },
      rounds: { type: 'string', default: '9' },
      'in-process': { type: 'boolean', default: false },
    },
  });
  const requests = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const rounds = Number(values.rounds);

  const sandbox: SandboxHandle = values['in-process'] ? await startSandbox() : await sandboxInWorker();
  const client = createServiceClient(sandbox);
  // The bare pool borrows the client's token, so any token beyond the first is the client's doing.
  const token = await client.token.get();
  const pool = new Pool(sandbox.baseUrl, { connections: concurrency });
  const ids = await createCustomers(client, 50);

  const bare = async (i: number) => {
    const res = await pool.request({
      method: 'GET',
      path: `/customers/${ids[i % ids.length]}`,
      headers: { accept: HAL_MEDIA_TYPE, authorization: `Bearer ${token}` },
    });
    const body = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`bare pool: ${res.statusCode}`);
    return body;
  };
  const viaClient = (i: number) => client.customers.get(ids[i % ids.length]!);

  // Warm both paths up (connections, JIT), then alternate them round by round.
  await throughput(1000, concurrency, bare);
  await throughput(1000, concurrency, viaClient);
  const bareRates: number[] = [];
  const clientRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternating which goes first keeps either from always inheriting the other's garbage.
    if (round % 2 === 0) bareRates.push(await throughput(requests, concurrency, bare));
    clientRates.push(await throughput(requests, concurrency, viaClient));
    if (round % 2 === 1) bareRates.push(await throughput(requests, concurrency, bare));
  }

  const stats = await pool.request({
    method: 'GET',
    path: '/sandbox/stats',
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  const { tokensIssued } = (await stats.body.json()) as { tokensIssued: number };
  await client.close();
  await pool.close();
  await sandbox.close();

  // Each round's two runs are adjacent in time, so their ratio is spared most of a shared machine's drift.
  const ratio = median(clientRates.map((rate, i) => rate / bareRates[i]!));
  const where = values['in-process'] ? 'same thread' : 'worker thread';
  console.info(
    `GET /customers/{id} × ${requests}, concurrency ${concurrency}, median of ${rounds} rounds, sandbox in a ${where}`,
  );
  console.info(`bare undici Pool: ${median(bareRates).toFixed(0)} req/s`);
  console.info(`service client:   ${median(clientRates).toFixed(0)} req/s`);
  console.info(
    `ratio (median of rounds): ${ratio.toFixed(3)} (goal ≥ 0.9) ${ratio >= 0.9 ? 'ok' : 'BELOW GOAL'}`,
  );
  console.info(
    `tokens issued: ${tokensIssued} (goal: 1) ${tokensIssued === 1 ? 'ok' : 'ABOVE GOAL'}; ${loadNote()}`,
  );
  printResult([
    atLeast(
      'service client GET vs bare undici Pool',
      ratio,
      0.9,
      `${ratio.toFixed(3)} (${median(clientRates).toFixed(0)} vs ${median(bareRates).toFixed(0)}/s)`,
    ),
    atMost('tokens issued for the whole run', tokensIssued, 1, '', String(tokensIssued)),
  ]);
}

await main();
