/**
 * The outbox against direct creates: drains 1,000 drafts through the outbox (validation with the contract
 * rules, keys committed before the requests, POST with the key, the link recorded) at concurrency 8, and
 * compares its drafts/s with 1,000 direct `POST /customers` through the service client at the same
 * concurrency (goal ≥ 0.8). Also printed: the rate until every new customer is fetched and recorded too
 * (the GET after each create), and the ratio to direct POSTs that carry an Idempotency-Key as the outbox's
 * do (the service does more for those). Then drains 1,000 more while the sandbox fails 10 % of customer
 * requests (500 and resets after the work is done, 503 before it) and counts duplicates (goal: 0).
 *
 * Each run gets a fresh sandbox in a worker thread (as the real service runs elsewhere), warmed up first;
 * the journal is a real file.
 *
 *   node bench/outbox.ts [--drafts 1000] [--concurrency 8] [--rounds 3] [--fault-rate 0.1]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { createFieldKey } from '../main/crypto.ts';
import { createOutbox } from '../main/drafts/outbox/index.ts';
import { type Journal, openJournal } from '../main/journal/index.ts';
import { createLogger } from '../main/log.ts';
import {
  type CustomerInput,
  createServiceClient,
  HAL_MEDIA_TYPE,
  type ServiceClient,
} from '../main/service/index.ts';
import { samplePerson } from '../test/support/person.ts';
import { type SandboxHandle, sandboxInWorker } from './support/sandbox-worker.ts';

/** A valid personal customer with an e-mail no other run uses. */
function customer(run: string, i: number): CustomerInput {
  return samplePerson('Bench', `Draft${i}`, `${run}-${i}@bench.example`);
}

const rate = (count: number, started: number) => count / ((performance.now() - started) / 1000);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Direct creates, `concurrency` at a time: the baseline. Returns creates/s. `keyed`: each with an
 * Idempotency-Key, as the outbox sends them (the service does more work for a keyed POST).
 */
async function directCreates(client: ServiceClient, count: number, concurrency: number, keyed: boolean) {
  const run = randomUUID().slice(0, 8);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      await client.customers.create(customer(run, next++), keyed ? { idempotencyKey: randomUUID() } : {});
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return rate(count, started);
}

/**
 * Drafts written to a fresh journal (not timed), then submitted and drained (timed). Returns drafts/s until
 * every draft is created and linked to its customer, and until every new customer is fetched and recorded too.
 */
async function outboxDrain(client: ServiceClient, count: number, concurrency: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-outbox-'));
  const journal: Journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
  const run = randomUUID().slice(0, 8);
  const ids = await journal.transaction(async (tx) => {
    const inserted: string[] = [];
    for (let i = 0; i < count; i++) inserted.push((await tx.drafts.insert({ form: customer(run, i) })).id);
    return inserted;
  });
  let linkedAt = 0;
  const outbox = createOutbox({
    journal,
    client: () => client,
    log: createLogger(() => {}),
    concurrency,
    onProgress: (progress) => {
      if (progress.finished) linkedAt = performance.now();
    },
  });
  const started = performance.now();
  const { queued } = await outbox.submit(ids);
  await outbox.settled();
  const perSecond = { linked: count / ((linkedAt - started) / 1000), recorded: rate(count, started) };
  const created = (await journal.drafts.countByState()).created;
  const customerIds = new Set((await journal.drafts.list()).map((draft) => draft.customerId));
  let recorded = customerIds.size > 0;
  for (const id of customerIds) recorded &&= Boolean(id && (await journal.customers.get(id)));
  await outbox.close();
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
  if (queued.length !== count || created !== count || customerIds.size !== count || !recorded) {
    throw new Error(
      `outbox run incomplete: ${queued.length} queued, ${created} created, ${customerIds.size} ids`,
    );
  }
  return perSecond;
}

async function control(
  sandbox: SandboxHandle,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) {
  const res = await request(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { accept: HAL_MEDIA_TYPE, 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.body.json() as Promise<Record<string, unknown>>;
}

async function customersOnSandbox(sandbox: SandboxHandle, token: string): Promise<number> {
  const stats = await control(sandbox, token, 'GET', '/sandbox/stats');
  return Object.values(stats.customers as Record<string, number>).reduce((sum, n) => sum + n, 0);
}

/**
 * Runs one measurement on a sandbox of its own, warmed up first with the same work: runs do not inherit each
 * other's rows (the service's idempotency keys pile up) or a cold thread.
 */
async function onFreshSandbox<T>(
  measure: (client: ServiceClient, sandbox: SandboxHandle, token: string) => Promise<T>,
  warmUp: (client: ServiceClient) => Promise<unknown>,
): Promise<T> {
  const sandbox = await sandboxInWorker();
  const client = createServiceClient(sandbox);
  try {
    const token = await client.token.get();
    await warmUp(client);
    return await measure(client, sandbox, token);
  } finally {
    await client.close();
    await sandbox.close();
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      drafts: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
      'fault-rate': { type: 'string', default: '0.1' },
    },
  });
  const count = Number(values.drafts);
  const concurrency = Number(values.concurrency);
  const rounds = Number(values.rounds);
  const faultRate = Number(values['fault-rate']);
  const warmUpCount = Math.min(200, count);

  const direct: number[] = [];
  const keyed: number[] = [];
  const drained: { linked: number; recorded: number }[] = [];
  const directRun = (withKey: boolean) =>
    onFreshSandbox(
      (client) => directCreates(client, count, concurrency, withKey),
      (client) => directCreates(client, warmUpCount, concurrency, withKey),
    );
  for (let round = 0; round < rounds; round++) {
    direct.push(await directRun(false));
    keyed.push(await directRun(true));
    drained.push(
      await onFreshSandbox(
        (client) => outboxDrain(client, count, concurrency),
        (client) => outboxDrain(client, warmUpCount, concurrency),
      ),
    );
  }

  const { faulted, duplicates } = await onFreshSandbox(
    async (client, sandbox, token) => {
      const before = await customersOnSandbox(sandbox, token);
      await control(sandbox, token, 'POST', '/sandbox/faults', {
        rate: faultRate,
        kinds: ['500', '503', 'reset'],
        paths: ['/customers', '/customers/{id}'],
      });
      const faulted = await outboxDrain(client, count, concurrency);
      await control(sandbox, token, 'POST', '/sandbox/faults', { rate: 0 });
      return { faulted, duplicates: (await customersOnSandbox(sandbox, token)) - before - count };
    },
    (client) => outboxDrain(client, warmUpCount, concurrency),
  );

  // Each round's runs are adjacent in time, so their ratio is spared most of a shared machine's drift.
  const ratio = median(drained.map((outbox, i) => outbox.linked / direct[i]!));
  const recordedRatio = median(drained.map((outbox, i) => outbox.recorded / direct[i]!));
  const keyedRatio = median(drained.map((outbox, i) => outbox.linked / keyed[i]!));
  const baseline = median(direct);
  const line = (label: string, value: string) => console.info(`${label.padEnd(46)}${value}`);
  console.info(
    `${count} drafts, concurrency ${concurrency}, median of ${rounds} rounds, sandbox in a worker thread`,
  );
  line('direct POST /customers:', `${baseline.toFixed(0)} /s`);
  line('direct POST /customers with Idempotency-Key:', `${median(keyed).toFixed(0)} /s`);
  line(
    'outbox, no faults, drafts created + linked:',
    `${median(drained.map((d) => d.linked)).toFixed(0)} /s`,
  );
  line('  … and every new customer fetched:', `${median(drained.map((d) => d.recorded)).toFixed(0)} /s`);
  line(
    'ratio, created + linked (median of rounds):',
    `${ratio.toFixed(3)} (goal ≥ 0.8) ${ratio >= 0.8 ? 'ok' : 'BELOW GOAL'}`,
  );
  line('ratio, including the fetches:', recordedRatio.toFixed(3));
  line('ratio to keyed direct POSTs:', keyedRatio.toFixed(3));
  line(
    `outbox, ${Math.round(faultRate * 100)} % faults, created + linked:`,
    `${faulted.linked.toFixed(0)} /s (${(faulted.linked / baseline).toFixed(3)} of direct)`,
  );
  line('duplicates on the sandbox:', `${duplicates} (goal: 0) ${duplicates === 0 ? 'ok' : 'DUPLICATES'}`);
  if (duplicates !== 0) process.exitCode = 1;
}

await main();
