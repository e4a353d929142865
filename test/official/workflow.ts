import { randomUUID } from 'node:crypto';
import type { CustomerInput, CustomerRetryInput } from '#main/data/service/index.ts';
import { HAL_MEDIA_TYPE, ServiceError, TokenError } from '#main/data/service/index.ts';
import { jpeg } from '../sandbox/helpers.ts';
import { samplePerson } from '../support/person.ts';
import { until } from '../support/poll.ts';
import type { Rig } from './rig.ts';

/**
 * Every call Vetted makes to the service, through the real client, once as it succeeds and then as
 * the service refuses it: what the official description is checked against (the front records it).
 * Error statuses come from the client's own calls where it can provoke them, from the sandbox's
 * faults (429, 503, 500, the real service's 401s), and from a few requests the test sends itself
 * (`raw`: a refused bearer token, a wrong Accept) that the client never sends.
 */

/** The refusal a step expects; the front records the answer, the thrown error is not the point. */
async function refused(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ServiceError || error instanceof TokenError) return;
    throw error;
  }
  throw new Error('The call was expected to be refused, and succeeded.');
}

let serial = 0;
function person(firstName: string): CustomerInput {
  serial++;
  return samplePerson(firstName, 'Doe', `official.${serial}.${randomUUID().slice(0, 8)}@example.com`, {
    ipAddress: '203.0.113.7',
    address2: 'Apt 2',
  }) as CustomerInput;
}

/** The retry's body: the same fields, corrected, with the full number. */
const retryOf = (input: CustomerInput): CustomerRetryInput => ({ ...input, tin: '123-45-6789' });

const photo = (fileName: string, bytes: Uint8Array = jpeg()) => ({
  documentType: 'passport',
  fileName,
  contentType: 'image/jpeg',
  bytes,
});

const key = () => ({ idempotencyKey: randomUUID() });
/** A day's date, `days` from today (UTC): the sandbox's clock runs a few minutes ahead of ours here. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The calls as they succeed. Returns what the refusals need. */
async function successes(rig: Rig) {
  const { client } = rig;
  await client.token.get();
  const subscription = await client.subscriptions.create(rig.hooks.url, 'whsec-official', key());
  await client.subscriptions.list();
  await client.subscriptions.get(subscription.id);

  const verified = await client.customers.create(person('Jane'), key());
  const retryInput = person('retry');
  const retry = await client.customers.create(retryInput, key());
  const document = await client.customers.create(person('document'), key());
  const crowded = await client.customers.create(person('document'), key());
  for (const name of ['suspended', 'kba', 'unverified']) await client.customers.create(person(name));
  for (const { id } of [verified, retry, document]) await client.customers.get(id);
  await client.customers.retry(retry.id, retryOf(retryInput), key());
  const listed = await client.customers.list({
    limit: 25,
    offset: 0,
    search: 'Doe',
    status: ['retry', 'kba'],
  });
  if ('unsupported' in listed) throw new Error('The customer list is missing.');
  for (const customer of listed.customers) await client.customers.get(customer.id);
  await client.customers.list({ email: 'nobody@example.com', limit: 10 });

  const failed = await client.documents.upload(document.id, photo('fail.jpg'), key());
  await rig.sandbox.advanceClock(60);
  await client.documents.upload(document.id, photo('fraud.jpg'), key());
  await rig.sandbox.advanceClock(60);
  await client.documents.listForCustomer(document.id);
  await client.documents.get({ href: failed.url });

  const events = await client.events.list({ limit: 5, offset: 0 });
  await client.events.get(events.events[0]!.id);

  await until(() => rig.hooks.received.length > 0, 'a webhook delivered');
  const { deliveries } = await client.subscriptions.deliveries(subscription.id, {
    limit: 10,
    offset: 0,
    startDate: dayFromToday(-1),
    endDate: dayFromToday(1),
  });
  await client.subscriptions.redeliver(deliveries[0]!.id, key());
  await client.subscriptions.setPaused(subscription.id, true, key());
  await client.subscriptions.setPaused(subscription.id, false);
  const spare = await client.subscriptions.create(rig.hooks.url, 'whsec-spare');
  await client.subscriptions.delete(spare.id);
  return { verified, retry, retryInput, crowded, subscription };
}

type Made = Awaited<ReturnType<typeof successes>>;

/** The refusals the client's own calls provoke. */
async function refusals(rig: Rig, made: Made) {
  const { client } = rig;
  const unknown = randomUUID();
  await refused(rig.refusedClient.token.get());
  await refused(
    client.customers.create({ ...person('Jane'), email: 'not-an-email', dateOfBirth: '1990-02-30' }),
  );
  const twin = person('Jane');
  await client.customers.create(twin);
  await refused(client.customers.create(twin));
  await refused(client.customers.retry(made.retry.id, retryOf(made.retryInput)));
  await refused(client.customers.get(unknown));
  await refused(client.documents.upload(made.verified.id, photo('id.jpg')));
  await refused(client.documents.upload(unknown, photo('id.jpg')));
  await refused(client.documents.upload(made.crowded.id, photo('id.jpg', new Uint8Array(64))));
  await refused(client.documents.upload(made.crowded.id, photo('big.jpg', jpeg(10 * 1024 * 1024 + 1))));
  for (let i = 0; i < 4; i++) await client.documents.upload(made.crowded.id, photo(`page-${i}.jpg`));
  await refused(client.documents.upload(made.crowded.id, photo('one-too-many.jpg')));
  await refused(client.documents.get(unknown));
  await refused(client.documents.listForCustomer(unknown));
  await refused(client.events.get(unknown));
  await refused(client.subscriptions.create('ftp://example.com/hooks', 'whsec'));
  await refused(client.subscriptions.create(rig.hooks.url, 'x'.repeat(200)));
  await refused(client.subscriptions.get(unknown));
  await refused(client.subscriptions.setPaused(unknown, true));
  await refused(client.subscriptions.deliveries(unknown));
  await refused(client.subscriptions.redeliver(unknown));
  await refused(client.subscriptions.delete(unknown));
}

/** The sandbox's faults, each once on one operation; a GET is re-sent by the client and then passes. */
async function faults(rig: Rig, made: Made) {
  const kinds = ['429', '503', '500', ...(rig.profile === 'real' ? ['InvalidScopes', 'RequestTimeout'] : [])];
  for (const kind of kinds) {
    await rig.control('faults', { rate: 1, kinds: [kind], paths: ['/customers/{id}'], count: 1 });
    await rig.client.customers.get(made.verified.id).catch(() => undefined);
  }
  await rig.control('faults', { rate: 1, kinds: ['429'], paths: ['/webhook-subscriptions'], count: 1 });
  await refused(rig.client.subscriptions.create(rig.hooks.url, 'whsec-limited'));
  await rig.control('faults', { rate: 0 });
}

/** A create re-sent with its Idempotency-Key while the first is still being worked on: 409. */
async function conflict(rig: Rig) {
  await rig.control('faults', {
    rate: 1,
    kinds: ['delay'],
    paths: ['/customers'],
    delayMs: 60_000,
    count: 1,
  });
  const input = person('Jane');
  const options = key();
  const first = rig.client.customers.create(input, options);
  try {
    await until(async () => (await rig.held()) === 1, 'the first create held');
    await refused(rig.client.customers.create(input, options));
  } finally {
    await rig.control('faults', { rate: 0 }); // releases the first
    await first;
  }
}

/** What only a request the client never sends provokes. */
async function rawRefusals(rig: Rig, made: Made) {
  const token = await rig.client.token.get();
  const api = { accept: HAL_MEDIA_TYPE, authorization: `Bearer ${token}`, 'content-type': HAL_MEDIA_TYPE };
  await rig.raw('GET', '/customers', { ...api, authorization: 'Bearer not-a-token' });
  await rig.raw('GET', '/customers', { ...api, accept: 'application/json' });
  await rig.raw('POST', '/customers', api, '{"firstName":');
  await rig.raw('POST', `/customers/${made.crowded.id}/documents`, api, '{}');
}

export async function runWorkflow(rig: Rig): Promise<void> {
  const made = await successes(rig);
  await refusals(rig, made);
  await conflict(rig); // before the faults: a 429 closes the client's request budget for a while
  await faults(rig, made);
  await rawRefusals(rig, made);
}
