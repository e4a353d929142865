import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VettedError } from '#contract/errors.ts';
import { call, HAL, requestFormToken } from '#test/sandbox/helpers.ts';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';

/** The `sandboxProfile` setting: the built-in sandbox restarts in the chosen profile, on its same data. */
describe('desk: the built-in sandbox profile setting', () => {
  let h: DeskHarness;

  beforeAll(async () => {
    h = await startDesk();
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  const running = () => h.desk.connection().sandbox!;

  it('starts on the interface profile', async () => {
    expect((await h.call('settings.get')).sandboxProfile).toBe('interface');
    expect(running().profile).toBe('interface');
  });

  it('switching to real restarts the sandbox in the real profile with the same credentials', async () => {
    const before = running();
    const view = await h.call('settings.update', { sandboxProfile: 'real' });
    expect(view.sandboxProfile).toBe('real');
    const after = running();
    expect(after).not.toBe(before);
    expect(after.profile).toBe('real');
    expect(after.clientId).toBe(before.clientId);
    const token = await requestFormToken(after.baseUrl, after.clientId, after.clientSecret);
    expect(token.status).toBe(200);
    const root = await call(`${after.baseUrl}/`, {
      headers: { accept: HAL, authorization: `Bearer ${token.json.access_token}` },
    });
    expect(root.status).toBe(200);
  });

  it('an unknown profile is refused, naming the field', async () => {
    const refused = await h
      .call('settings.update', { sandboxProfile: 'staging' as 'real' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VettedError);
    expect(running().profile).toBe('real');
  });

  it('is remembered: a desk started again on the same data is on the real profile', async () => {
    await h.close();
    h = await startDesk(h.dataDir);
    expect((await h.call('settings.get')).sandboxProfile).toBe('real');
    expect(running().profile).toBe('real');
    await h.call('settings.update', { sandboxProfile: 'interface' });
    expect(running().profile).toBe('interface');
  });
});
