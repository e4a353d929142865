import { describe, expect, it, vi } from 'vitest';
import { fakeApi, installFresh, settle } from '#test/support/renderer/fake-api.ts';
import { customerDetail } from '#test/support/renderer/fixtures.ts';
import { queueRow } from '#test/support/renderer/queue-rows.ts';

async function customers() {
  const get = vi.fn(async ({ id }: { id: string }) => customerDetail(id));
  const refresh = vi.fn(async ({ id }: { id: string }) => customerDetail(id, 'verified'));
  const reveal = vi.fn(async () => ({ ssnLastFour: '6789' }));
  const fake = fakeApi({ customers: { get, refresh, reveal } });
  await installFresh(fake);
  const { useCustomerStore } = await import('#renderer/features/customer/customer-store.ts');
  return { fake, get, refresh, reveal, store: useCustomerStore };
}

describe('customer store', () => {
  it('opens a customer and reads it again when main pushes a change to it, while watched', async () => {
    const { fake, get, store } = await customers();
    const stop = store.getState().watch();
    await store.getState().open('c1');
    expect(store.getState().detail?.id).toBe('c1');

    fake.push('customer.updated', queueRow('c2', 'verified', 1));
    fake.push('customer.updated', queueRow('c1', 'verified', 1));
    await settle();
    expect(get).toHaveBeenCalledTimes(2);
    expect(get).toHaveBeenLastCalledWith({ id: 'c1' });
    stop();
    expect(fake.listeners('customer.updated')).toBe(0);
  });

  it('drops an answer for a customer no longer on screen', async () => {
    const { store, get } = await customers();
    let answer: (value: ReturnType<typeof customerDetail>) => void = () => {};
    get.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const first = store.getState().open('c1');
    await store.getState().open('c2');
    answer(customerDetail('c1'));
    await first;
    expect(store.getState().detail?.id).toBe('c2');
  });

  it('refreshes from the service and says so; reveals with the reason trimmed', async () => {
    const { store, reveal } = await customers();
    await store.getState().open('c1');
    await store.getState().refresh();
    expect(store.getState().detail?.status).toBe('verified');
    expect(store.getState().notice).toBe('Refreshed from the service.');
    await store.getState().reveal('c1', '  checking the address ');
    expect(reveal).toHaveBeenCalledWith({ id: 'c1', reason: 'checking the address' });
  });
});
