import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { CustomerForm } from '#contract/drafts.ts';
import { type Journal, openJournal } from '#main/data/journal/index.ts';
import { createServiceClient, HAL_MEDIA_TYPE, type ServiceClient } from '#main/data/service/index.ts';
import { createOutbox, type Outbox, type OutboxOptions } from '#main/features/drafts/outbox/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';

let serial = 0;

/** A draft form the contract rules accept; the e-mail is unique per call. */
export function validForm(overrides: CustomerForm = {}): CustomerForm {
  serial++;
  return {
    firstName: 'Ada',
    lastName: 'Okafor',
    email: `ada.${serial}.${randomUUID().slice(0, 8)}@example.com`,
    type: 'personal',
    address1: '221 Baker Street',
    address2: '',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62704',
    dateOfBirth: '1984-02-29',
    tin: '6789',
    ipAddress: '',
    ...overrides,
  };
}

export function tempDir(prefix = 'vetted-drafts-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A service client that never sleeps between its own retries: tests stay quick under faults. */
export function quickClient(sandbox: RunningSandbox): ServiceClient {
  return createServiceClient({
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    sleep: async () => {},
  });
}

/** `POST /sandbox/faults`; rate 0 turns them off. */
export async function setFaults(
  sandbox: RunningSandbox,
  client: ServiceClient,
  faults: {
    rate: number;
    kinds?: string[];
    paths?: string[];
    delayMs?: number;
    /** The faults end after this many faulted requests. */
    count?: number;
  },
): Promise<void> {
  const res = await request(`${sandbox.baseUrl}/sandbox/faults`, {
    method: 'POST',
    headers: {
      accept: HAL_MEDIA_TYPE,
      'content-type': 'application/json',
      authorization: `Bearer ${await client.token.get()}`,
    },
    body: JSON.stringify(faults),
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`faults not set: ${res.statusCode}`);
}

/** The sandbox's customers with this e-mail (exact match). */
export async function customersWithEmail(client: ServiceClient, email: string) {
  const page = await client.customers.list({ email, limit: 10 });
  if ('unsupported' in page) throw new Error('the sandbox has a customer list');
  return page.customers;
}

/** The outbox engine alone, on a sandbox, with a journal of its own: for what the desk cannot inject. */
export interface OutboxRig {
  sandbox: RunningSandbox;
  client: ServiceClient;
  journal: Journal;
  outbox: Outbox;
  file: string;
  dataKey: Buffer;
  changes: string[];
  /** Stops the outbox where it is and starts a new one on the same journal file: what a restart does. */
  restart(overrides?: Partial<OutboxOptions>): Promise<void>;
  close(): Promise<void>;
}

export async function outboxRig(
  overrides: Partial<OutboxOptions> & { clock?: () => Date; sandbox?: RunningSandbox } = {},
): Promise<OutboxRig> {
  const dir = tempDir();
  const file = path.join(dir, 'journal.db');
  const dataKey = createFieldKey();
  const { clock, sandbox: given, ...options } = overrides;
  const sandbox = given ?? (await startSandbox());
  const client = quickClient(sandbox);
  const changes: string[] = [];
  const open = (more: Partial<OutboxOptions>) => {
    const journal = openJournal({ file, dataKey, ...(clock ? { clock } : {}) });
    const outbox = createOutbox({
      journal,
      client: () => client,
      log: createLogger(() => {}),
      backoff: { baseMs: 1, maxMs: 5 },
      onDraftChange: (id) => changes.push(id),
      ...(clock ? { now: clock } : {}),
      ...options,
      ...more,
    });
    return { journal, outbox };
  };
  const rig: OutboxRig = {
    sandbox,
    client,
    file,
    dataKey,
    changes,
    ...open({}),
    async restart(more = {}) {
      await rig.outbox.close();
      await rig.journal.close();
      Object.assign(rig, open(more));
    },
    async close() {
      await rig.outbox.close();
      await rig.journal.close();
      await client.close();
      if (!given) await sandbox.close();
      removeDir(dir);
    },
  };
  return rig;
}

/** Inserts drafts with valid forms and submits them; returns their ids. */
export async function submitDrafts(
  rig: { journal: Journal; outbox: Outbox },
  forms: CustomerForm[],
): Promise<string[]> {
  const ids = await rig.journal.transaction(async (tx) => {
    const inserted: string[] = [];
    for (const form of forms) inserted.push((await tx.drafts.insert({ form })).id);
    return inserted;
  });
  const result = await rig.outbox.submit(ids);
  if (result.queued.length !== ids.length) throw new Error(`not all queued: ${JSON.stringify(result)}`);
  return ids;
}
