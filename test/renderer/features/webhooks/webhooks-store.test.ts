import { describe, expect, it, vi } from 'vitest';
import type { CatchUpResult, WebhooksOverview } from '#contract/webhooks.ts';
import { fakeApi, installFresh, settle } from '#test/support/renderer/fake-api.ts';

const LISTENER: WebhooksOverview['listener'] = {
  listening: true,
  url: 'http://127.0.0.1:8789/webhooks',
  port: 8789,
  configuredPort: 8789,
  problem: null,
  rejected: 0,
};
const OVERVIEW: WebhooksOverview = {
  subscriptions: [],
  max: 10,
  listener: LISTENER,
  publicUrl: null,
  defaultUrl: LISTENER.url,
  problem: null,
};
const CAUGHT_UP: CatchUpResult = { recorded: 2, processed: 2, pausedSubscriptions: [], message: null };

async function webhooks() {
  const list = vi.fn(async () => OVERVIEW);
  const securityLog = vi.fn(async () => ({ rows: [], total: 0 }));
  const fake = fakeApi({ webhooks: { list, securityLog } });
  await installFresh(fake);
  const { useWebhooksStore } = await import('#renderer/features/webhooks/webhooks-store.ts');
  return { fake, list, securityLog, store: useWebhooksStore };
}

describe('webhooks store', () => {
  it('loads while its screen is watched and follows the listener main reports', async () => {
    const { fake, list, store } = await webhooks();
    const stop = store.getState().watch();
    await settle();
    expect(list).toHaveBeenCalledTimes(1);
    fake.push('webhooks.listener', { ...LISTENER, rejected: 3 });
    expect(store.getState().overview?.listener.rejected).toBe(3);
    stop();
    expect(fake.listeners('webhooks.listener')).toBe(0);
  });

  it('keeps a catch-up main ran by itself, and lists again only while the screen is on', async () => {
    const { fake, list, store } = await webhooks();
    const stopCatchUps = store.getState().watchCatchUps();
    fake.push('webhooks.caughtUp', CAUGHT_UP);
    expect(store.getState().catchUp).toEqual(CAUGHT_UP);
    expect(list).not.toHaveBeenCalled();

    const stop = store.getState().watch();
    await settle();
    fake.push('webhooks.caughtUp', CAUGHT_UP);
    await settle();
    expect(list).toHaveBeenCalledTimes(2);
    stop();
    stopCatchUps();
    expect(fake.listeners('webhooks.caughtUp')).toBe(0);
  });

  it('reads the security log, and says when it cannot', async () => {
    const { securityLog, store } = await webhooks();
    await store.getState().loadSecurityLog();
    expect(store.getState().securityLog).toEqual({ log: { rows: [], total: 0 }, problem: null });
    securityLog.mockRejectedValueOnce(new Error('closed'));
    await store.getState().loadSecurityLog();
    expect(store.getState().securityLog.problem).toBe('The security log could not be read: closed');
  });
});
