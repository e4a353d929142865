import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/poll.ts';
import { hmacHex, idOf, type Receiver, receiver, subscribe } from './helpers.ts';
import { PROFILES, sandboxes } from './profiles.setup.ts';

/** real-service.md, "Unchanged between the two": the same on both profiles. */
let hooks: Receiver;
beforeAll(async () => {
  hooks = await receiver(200);
});
afterAll(() => hooks.close());

describe.each(PROFILES)('unchanged (%s profile)', (profile) => {
  it('406 InvalidVersion; a ValidationError with JSON pointers; Duplicate with an about link', async () => {
    const h = sandboxes[profile];
    const version = await h.api('GET', '/customers', { headers: { accept: 'application/json' } });
    expect(version.status).toBe(406);
    expect(version.json.code).toBe('InvalidVersion');
    const body = h.person();
    const id = await h.createCustomer(body);
    const duplicate = await h.api('POST', '/customers', { json: { ...body, postalCode: 'x' } });
    expect(duplicate.status).toBe(400);
    const errors = duplicate.json._embedded.errors;
    expect(errors.map((error: { path: string }) => error.path)).toEqual(['/email', '/postalCode']);
    expect(errors[0]._links.about.href).toBe(`${h.base}/customers/${id}`);
  });

  it('201 + Location with an empty body; the one retry, then 403', async () => {
    const h = sandboxes[profile];
    const created = await h.api('POST', '/customers', { json: h.person({ firstName: 'retry' }) });
    expect(created.status).toBe(201);
    expect(created.text).toBe('');
    const id = idOf(created.headers.location);
    expect(
      (await h.api('POST', `/customers/${id}`, { json: h.retryBody({ firstName: 'retry' }) })).status,
    ).toBe(200);
    expect((await h.api('POST', `/customers/${id}`, { json: h.retryBody() })).status).toBe(403);
  });

  it('Idempotency-Key replays the first answer', async () => {
    const h = sandboxes[profile];
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const body = h.person();
    const first = await h.api('POST', '/customers', { json: body, headers });
    const second = await h.api('POST', '/customers', { json: body, headers });
    expect(second.status).toBe(201);
    expect(second.headers.location).toBe(first.headers.location);
  });

  it('webhooks signed with HMAC-SHA256 (hex) over the raw body with the subscription secret', async () => {
    const h = sandboxes[profile];
    const secret = `secret-${profile}`;
    const subscription = await subscribe(h, `${hooks.url}/${profile}`, secret);
    const id = await h.createCustomer();
    const mine = () =>
      hooks.received.filter((webhook) => webhook.event._links.customer.href === `${h.base}/customers/${id}`);
    await until(() => mine().length >= 2, `two webhooks about ${id}`, 10_000);
    for (const webhook of mine())
      expect(webhook.headers['x-request-signature-sha-256']).toBe(hmacHex(secret, webhook.raw));
    const paused = await h.api('POST', `/webhook-subscriptions/${subscription}`, { json: { paused: true } });
    expect(paused.json.paused).toBe(true);
    expect((await h.api('DELETE', `/webhook-subscriptions/${subscription}`)).status).toBe(200);
  });
});
