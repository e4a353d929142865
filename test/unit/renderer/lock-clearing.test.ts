import { describe, expect, it } from 'vitest';
import { fakeApi, installFresh } from './fake-api.ts';

declare global {
  interface ImportMeta {
    /** Vite's: every file the pattern matches, its text by its path from here. */
    glob(pattern: string, options: { query: '?raw'; import: 'default'; eager: true }): Record<string, string>;
  }
}

const SOURCES = import.meta.glob('../../../renderer/src/**/*.{ts,tsx}', {
  query: '?raw',
  import: 'default',
  eager: true,
});
/** The stores that hold nothing of a customer: kept while the desk is locked (the app's open case is closed). */
const KEPT = ['useVaultStore', 'useLockStore', 'useAppStore'];

/** Every `export const useXStore = create…` in the renderer, with the module it is in. */
function everyStore(): { name: string; file: string }[] {
  return Object.entries(SOURCES).flatMap(([file, source]) =>
    [...source.matchAll(/export const (use\w+) = create\b/g)].map((match) => ({
      name: match[1] as string,
      file,
    })),
  );
}

async function fresh() {
  await installFresh(fakeApi());
  return {
    personal: await import('#renderer/shell/personal-stores.ts'),
    app: (await import('#renderer/store.ts')).useAppStore,
    queue: (await import('#renderer/features/queue/queue-store.ts')).useQueueStore,
    toasts: (await import('#renderer/shell/toast-store.ts')).useToastStore,
  };
}

describe('what the page clears when the desk locks', () => {
  it('every store the renderer creates is cleared, but the three holding nothing of a customer', async () => {
    const { personal } = await fresh();
    const stores = everyStore();
    expect(stores.length).toBeGreaterThan(20);
    for (const { name, file } of stores) {
      const store = ((await import(/* @vite-ignore */ file)) as Record<string, unknown>)[name];
      expect(personal.CLEARED_STORES.includes(store as never), `${name} (${file}) cleared`).toBe(
        !KEPT.includes(name),
      );
    }
  });

  it('clears the queue’s rows and search, the toasts, and closes the open case', async () => {
    const { personal, app, queue, toasts } = await fresh();
    app.getState().openCustomer('c-1');
    queue.setState({ search: 'Moreau' });
    toasts
      .getState()
      .show({ customerId: 'c-1', status: 'verified', title: 'Customer verified', body: 'Jean Moreau' });
    personal.clearPersonalData();
    expect(queue.getState().search).toBe('');
    expect(toasts.getState().toasts).toEqual([]);
    expect(app.getState()).toMatchObject({ view: 'queue', customerId: null });
  });

  it('holds the stores cleared while locked: an answer that arrives late does not bring a customer back', async () => {
    const { personal, queue } = await fresh();
    let locked = true;
    const stop = personal.keepClearedWhile(() => locked);
    queue.setState({ search: 'Moreau' });
    expect(queue.getState().search).toBe('');
    locked = false;
    queue.setState({ search: 'Moreau' });
    expect(queue.getState().search).toBe('Moreau');
    stop();
  });
});
