import { afterAll, beforeAll, expect } from 'vitest';
import { call, type Harness, harness, type Receiver, type Res, receiver, subscribe } from './helpers.ts';

/**
 * One test per row of service-interface.md, in the interface.*.test.ts files. Importing this module gives
 * the importing file one sandbox and one webhook receiver subscribed to it, for all its tests: `h` and
 * `hooks` are live bindings, set before the file's first test and closed after its last.
 */
export let h: Harness;
export let hooks: Receiver;
beforeAll(async () => {
  h = await harness({ reviewDelayMs: 60_000 });
  hooks = await receiver(200);
  await subscribe(h, hooks.url, 'interface-secret');
});
afterAll(async () => {
  await h.close();
  await hooks.close();
});

/** Uploads a document named `fileName` and lets the review run. */
export async function reviewed(customerId: string, fileName: string): Promise<void> {
  expect((await h.upload(customerId, fileName)).status).toBe(201);
  await h.sandbox.advanceClock(60);
}

/** POST /oauth/v2/token with the sandbox's client credentials, as JSON. */
export function requestToken(): Promise<Res> {
  return call(`${h.base}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: h.sandbox.clientId,
      client_secret: h.sandbox.clientSecret,
      grant_type: 'client_credentials',
    }),
  });
}
