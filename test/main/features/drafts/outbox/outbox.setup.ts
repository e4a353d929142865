import { afterEach } from 'vitest';
import { NetworkError, type ServiceClient } from '#main/data/service/index.ts';
import { type OutboxRig, outboxRig } from '#test/support/desk/drafts.ts';

/**
 * What the outbox.*.test.ts files share: the exactly-once engine on a real sandbox, with failures injected
 * where the desk cannot inject them.
 */

const open: OutboxRig[] = [];
afterEach(async () => {
  for (const rig of open.splice(0)) await rig.close();
});

/** An outbox rig (see outboxRig), closed after the test that opened it. */
export async function openRig(...args: Parameters<typeof outboxRig>): Promise<OutboxRig> {
  const rig = await outboxRig(...args);
  open.push(rig);
  return rig;
}

export type Create = ServiceClient['customers']['create'];

export function withCreate(client: ServiceClient, create: Create): ServiceClient {
  return { ...client, customers: { ...client.customers, create } };
}

/** The service did the work, then the answer was lost: what a reset after commit looks like to Vetted. */
export function losingAnswers(client: ServiceClient, times: number, keys: string[] = []): Create {
  let lost = 0;
  return async (input, opts) => {
    keys.push(opts?.idempotencyKey ?? '');
    const created = await client.customers.create(input, opts);
    if (lost++ < times) throw new NetworkError('reset');
    return created;
  };
}

export function refusing(error: () => Error): Create {
  return async () => {
    throw error();
  };
}
