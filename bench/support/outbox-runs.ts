import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { type Journal, openJournal } from '#main/data/journal/index.ts';
import {
  type Customer,
  type CustomerInput,
  HAL_MEDIA_TYPE,
  type ServiceClient,
} from '#main/data/service/index.ts';
import { personalData } from '#main/features/drafts/form.ts';
import { createOutbox } from '#main/features/drafts/outbox/index.ts';
import { transitions } from '#main/features/drafts/outbox/states.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { samplePerson } from '#test/support/person.ts';
import type { SandboxHandle } from './sandbox-worker.ts';

/** The runs bench/outbox.ts compares: the outbox's drain, and the same requests sent directly. */

/** A valid personal customer with an e-mail no other run uses. */
function customer(run: string, i: number): CustomerInput {
  return samplePerson('Bench', `Draft${i}`, `${run}-${i}@bench.example`);
}

const rate = (count: number, started: number) => count / ((performance.now() - started) / 1000);

/** One sample: customers/s, and this (main) thread's CPU time per customer, which a busy machine moves less. */
export interface Sample {
  perSecond: number;
  cpuMicros: number;
}

function timed(count: number) {
  const started = performance.now();
  const cpu = process.threadCpuUsage();
  return (): Sample => {
    const used = process.threadCpuUsage(cpu);
    return { perSecond: rate(count, started), cpuMicros: (used.user + used.system) / count };
  };
}

/**
 * The baseline: each customer created (with a fresh Idempotency-Key when `keyed`, as the outbox sends it)
 * and then fetched, `concurrency` at a time. Returns customers/s.
 */
export async function directCreates(
  client: ServiceClient,
  count: number,
  concurrency: number,
  keyed: boolean,
) {
  const run = randomUUID().slice(0, 8);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const input = customer(run, next++);
      const created = await client.customers.create(input, keyed ? { idempotencyKey: randomUUID() } : {});
      await client.customers.get(created.id);
    }
  };
  const done = timed(count);
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done();
}

/** A fresh journal with `count` drafts in it (not timed); `done` removes it. */
async function journalWithDrafts(count: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-outbox-'));
  const journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
  const run = randomUUID().slice(0, 8);
  const forms = Array.from({ length: count }, (_, i) => customer(run, i));
  const ids = await journal.transaction(async (tx) => {
    const inserted: string[] = [];
    for (const form of forms) inserted.push((await tx.drafts.insert({ form })).id);
    return inserted;
  });
  const done = async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { journal, forms, ids, done };
}

/** Every draft created once, linked, and its customer recorded; throws if not. */
async function checkAllRecorded(journal: Journal, count: number, queued = count): Promise<void> {
  const created = (await journal.drafts.countByState()).created;
  const customerIds = new Set((await journal.drafts.list()).map((draft) => draft.customerId));
  let recorded = 0;
  for (const id of customerIds) if (id && (await journal.customers.get(id))) recorded++;
  if (queued !== count || created !== count || customerIds.size !== count || recorded !== count) {
    throw new Error(
      `run incomplete: ${queued} queued, ${created} created, ${customerIds.size} ids, ${recorded} recorded`,
    );
  }
}

/**
 * Drafts written to a fresh journal (not timed), then submitted and drained (timed) until every draft is
 * created, linked, and its customer fetched and recorded. Returns drafts/s; throws if any is missing.
 */
export async function outboxDrain(
  client: ServiceClient,
  count: number,
  concurrency: number,
): Promise<Sample> {
  const { journal, ids, done: remove } = await journalWithDrafts(count);
  const outbox = createOutbox({ journal, client: () => client, log: createLogger(() => {}), concurrency });
  const done = timed(count);
  const { queued } = await outbox.submit(ids);
  await outbox.settled();
  const sample = done();
  await checkAllRecorded(journal, count, queued.length);
  await outbox.close();
  await remove();
  return sample;
}

/**
 * A reference, not a goal: the keyed POST and the GET sent directly, then the writes the outbox makes for a
 * created draft (its link and audit row, the customer with its personal data sealed) done in the cheapest
 * way, whatever has arrived committed together once per turn. What recording alone costs this machine.
 */
export async function directCreatesRecorded(
  client: ServiceClient,
  count: number,
  concurrency: number,
): Promise<Sample> {
  const { journal, forms, ids, done: remove } = await journalWithDrafts(count);
  const arrived: Array<{ i: number; fetched: Customer }> = [];
  let writing: Promise<void> | null = null;
  const record = async () => {
    while (arrived.length > 0) {
      const batch = arrived.splice(0);
      await journal.transaction(
        async (tx) => {
          for (const { i, fetched } of batch) {
            await transitions.created(tx, ids[i]!, fetched.id, 'created');
            await tx.customers.upsert(fetched, { source: 'created' }, personalData(forms[i]!));
          }
        },
        { sync: 'later' },
      );
    }
    writing = null;
  };
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const created = await client.customers.create(forms[i]!, { idempotencyKey: randomUUID() });
      arrived.push({ i, fetched: await client.customers.get(created.id) });
      writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(record);
    }
  };
  const done = timed(count);
  await Promise.all(Array.from({ length: concurrency }, worker));
  while (writing) await writing;
  const sample = done();
  await checkAllRecorded(journal, count);
  await remove();
  return sample;
}

async function control(
  sandbox: SandboxHandle,
  token: string,
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
) {
  const res = await request(`${sandbox.baseUrl}${route}`, {
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
 * A drain of `count` drafts while the sandbox fails `faultRate` of customer requests (500 and resets after
 * the work is done, 503 before it); duplicates: customers created beyond one per draft.
 */
export async function withFaults(
  sandbox: SandboxHandle,
  token: string,
  faultRate: number,
  count: number,
  drain: () => Promise<Sample>,
): Promise<{ rate: number; duplicates: number }> {
  const before = await customersOnSandbox(sandbox, token);
  await control(sandbox, token, 'POST', '/sandbox/faults', {
    rate: faultRate,
    kinds: ['500', '503', 'reset'],
    paths: ['/customers', '/customers/{id}'],
  });
  const drained = await drain();
  await control(sandbox, token, 'POST', '/sandbox/faults', { rate: 0 });
  const created = (await customersOnSandbox(sandbox, token)) - before;
  return { rate: drained.perSecond, duplicates: created - count };
}
