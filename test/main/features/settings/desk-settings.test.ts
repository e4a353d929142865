import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '#sandbox/index.ts';
import {
  createOnService,
  type DeskHarness,
  everyFile,
  removeDir,
  startDesk,
} from '#test/support/desk/desk-harness.ts';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('desk: settings, connection and secrets', () => {
  let h: DeskHarness;
  let service: Sandbox;

  beforeAll(async () => {
    h = await startDesk();
    // A second sandbox plays "my service account", reached as a custom service.
    service = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await h.close();
    await service.close();
    removeDir(h.dataDir);
  });

  it('starts on the built-in sandbox and tests the connection', async () => {
    expect(await h.call('app.info')).toMatchObject({ serviceMode: 'sandbox', host: 'browser' });
    const test = await h.call('service.test');
    expect(test).toMatchObject({ ok: true });
    if (test.ok) expect(test.scope).toContain('ManageAccount');
    expect(await h.call('service.status')).toMatchObject({ mode: 'sandbox', state: 'online' });
    const settings = await h.call('settings.get');
    expect(settings).toMatchObject({
      serviceMode: 'sandbox',
      hasClientSecret: false,
      secretProtection: 'file-permissions',
    });
  });

  it('refuses bad settings field by field and keeps the old ones', async () => {
    await expect(
      h.call('settings.update', { serviceMode: 'custom', baseUrl: 'http://example.com' }),
    ).rejects.toMatchObject({
      code: 'InvalidSettings',
      fields: { '/baseUrl': expect.stringMatching(/https/) },
    });
    expect((await h.call('settings.get')).serviceMode).toBe('sandbox');
  });

  it('says "not set up" until a custom service has its URL, id and secret', async () => {
    const view = await h.call('settings.update', {
      serviceMode: 'custom',
      baseUrl: service.baseUrl,
      clientId: service.clientId,
    });
    expect(view).toMatchObject({ serviceMode: 'custom', baseUrl: service.baseUrl, hasClientSecret: false });
    expect(await h.call('service.status')).toMatchObject({ mode: 'custom', state: 'not-configured' });
    expect(await h.call('service.test')).toMatchObject({ ok: false, reason: 'not-configured' });
    await expect(h.call('customers.importAvailability')).rejects.toMatchObject({ code: 'NotConfigured' });
  });

  it('names a wrong secret as such', async () => {
    await h.call('settings.update', { clientSecret: 'definitely-not-the-secret' });
    expect(await h.call('service.test')).toMatchObject({ ok: false, reason: 'bad-credentials' });
    expect(await h.call('service.status')).toMatchObject({ state: 'auth-failed' });
  });

  it('connects to a custom service with the right secret, which it never shows', async () => {
    const view = await h.call('settings.update', { clientSecret: service.clientSecret });
    expect(view.hasClientSecret).toBe(true);
    expect(JSON.stringify(view)).not.toContain(service.clientSecret);
    expect(await h.call('service.test')).toMatchObject({ ok: true });
    expect(await h.call('app.info')).toMatchObject({ serviceMode: 'custom' });
    const id = await createOnService(h, 'Custom', 'custom@example.com');
    expect((await h.call('customers.add', { ref: id })).status).toBe('verified');
  });

  it('names an unreachable service as such', async () => {
    await h.call('settings.update', { baseUrl: 'http://127.0.0.1:9' });
    expect(await h.call('service.test')).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(await h.call('service.status')).toMatchObject({ state: 'offline' });
    await h.call('settings.update', { baseUrl: service.baseUrl });
  });

  it('never writes a secret in plaintext, nor lets one reach a log line, an output or an event', async () => {
    const token = await h.desk.connection().client().token.get();
    const secrets = [service.clientSecret, 'definitely-not-the-secret', token];
    await h.call('settings.update', { serviceMode: 'sandbox' });
    const sandboxSecret = h.desk.connection().sandbox!.clientSecret;
    const sandboxToken = await h.desk.connection().client().token.get();
    secrets.push(sandboxSecret, sandboxToken);
    await h.call('customers.reconcile');

    const files = everyFile(h.dataDir);
    expect(files.length).toBeGreaterThan(3);
    const said = [
      ...h.logLines,
      ...h.outputs.map((o) => JSON.stringify(o)),
      ...h.events.map((e) => JSON.stringify(e)),
    ];
    expect(said.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      for (const encoded of [
        secret,
        Buffer.from(secret).toString('base64'),
        Buffer.from(secret).toString('base64url'),
      ]) {
        for (const file of files) expect(file.includes(encoded)).toBe(false);
        for (const line of said) expect(line.includes(encoded)).toBe(false);
      }
    }
  });
});
