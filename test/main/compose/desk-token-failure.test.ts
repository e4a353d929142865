import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceStatus } from '#contract/settings.ts';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { until } from '#test/support/poll.ts';
import { customerBody, type FakeService, reply, startFakeService } from '../data/service/fake-service.ts';

const KNOWN = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const OTHER = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

/**
 * The issue's stand-in: a service whose token endpoint answers 404. Nothing about a customer may
 * follow from that: no customer marked gone, no "no customer with this id", and never "online".
 */
describe('desk: a token endpoint that answers 404', () => {
  let h: DeskHarness;
  let fake: FakeService;
  const statuses = () =>
    h.events.filter((e) => e.event === 'service.status').map((e) => (e.payload as ServiceStatus).state);

  beforeAll(async () => {
    fake = await startFakeService({ tokenForm: 'real' });
    fake.route('GET', `/customers/${KNOWN}`, (_req, res) =>
      reply(res, 200, customerBody(fake.baseUrl, KNOWN, 'retry')),
    );
    h = await startDesk();
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
    removeDir(h.dataDir);
  });

  it('first connects, learns the real form, and adds a customer', async () => {
    await h.call('settings.update', {
      serviceMode: 'custom',
      baseUrl: fake.baseUrl,
      clientId: 'fake-client-id',
      clientSecret: 'fake-client-secret-9c1e',
    });
    expect(await h.call('service.test')).toMatchObject({ ok: true });
    expect((await h.call('customers.add', { ref: KNOWN })).status).toBe('retry');
    // Remembered for the next start, under a hash of the account: neither its URL nor its client id.
    const remembered = readFileSync(path.join(h.dataDir, 'token-endpoints.json'), 'utf8');
    expect(Object.values(JSON.parse(remembered))).toEqual(['real']);
    expect(remembered).not.toContain('fake-client-id');
    expect(remembered).not.toContain(fake.baseUrl);
  });

  it('then the token endpoint 404s: sign-in failed, and nothing else changes', async () => {
    fake.route('POST', '/token', (_req, res) => reply(res, 404, { code: 'notFound', message: 'Not found.' }));
    const eventsBefore = h.events.length;
    const tokenRequestsBefore = fake.count('POST', '/token') + fake.count('POST', '/oauth/v2/token');
    // Any connection setting reconnects (a fresh client, no cached token).
    await h.call('settings.update', { tokenEndpoint: 'automatic' });
    await until(
      async () => (await h.call('service.status')).state === 'auth-failed',
      'the status bar to say sign-in failed',
      10_000,
    );
    await expect(h.call('customers.add', { ref: OTHER })).rejects.toMatchObject({ code: 'SignInFailed' });
    const reconcile = await h.call('customers.reconcile');
    expect(reconcile.finished).toBe(true);
    const known = await h.call('customers.get', { id: KNOWN });
    expect(known.gone).toBe(false);
    expect(known.status).toBe('retry');
    expect(h.events.slice(eventsBefore).some((e) => e.event === 'customer.updated')).toBe(false);
    expect(statuses().slice(-1)[0]).toBe('auth-failed');
    // One token request (the remembered form, then the other on its 404) for the whole start, the
    // reconcile and the add: a failure is shared, not asked again by every call.
    const tokenRequests = fake.count('POST', '/token') + fake.count('POST', '/oauth/v2/token');
    expect(tokenRequests - tokenRequestsBefore).toBe(2);
    expect(await h.call('service.test')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/No token endpoint answers/),
    });
    // The customer's own URL was never asked after the token failed.
    expect(fake.count('GET', `/customers/${OTHER}`)).toBe(0);
  });

  it('a customer whose own URL answers 403 notFound is gone', async () => {
    fake.route('POST', '/token', (req, res) => fake.issueToken(req, res));
    fake.route('GET', `/customers/${KNOWN}`, (_req, res) =>
      reply(res, 403, { code: 'notFound', message: 'The requested resource was not found.' }),
    );
    await h.call('settings.update', { tokenEndpoint: 'automatic' });
    await h.call('customers.refresh', { id: KNOWN });
    expect((await h.call('customers.get', { id: KNOWN })).gone).toBe(true);
  });

  it('an extra CA bundle that cannot be read is named in the status bar and in Test connection', async () => {
    await h.call('settings.update', { caBundlePath: '/nonexistent/corporate-proxy.pem' });
    expect(await h.call('service.status')).toMatchObject({
      state: 'not-configured',
      detail: expect.stringMatching(/extra CA bundle .* there is no such file/),
    });
    expect(await h.call('service.test')).toMatchObject({ ok: false, message: /no such file/ });
    await h.call('settings.update', { caBundlePath: null });
    expect(await h.call('service.test')).toMatchObject({ ok: true });
  });
});
