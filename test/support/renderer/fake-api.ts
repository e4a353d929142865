import { vi } from 'vitest';
import type { VettedApi } from '#contract/bridge.ts';
import type { EventName, EventPayload } from '#contract/channels.ts';

type Listener = (payload: unknown) => void;
// biome-ignore lint/suspicious/noExplicitAny: a fake answers whatever the test gives it.
type Methods = Record<string, Record<string, (...args: any[]) => unknown>>;

export interface FakeApi {
  /** The namespaces as the test gave them (vi.fn each), plus `on`. */
  api: VettedApi;
  /** Main pushes an event to every listener the renderer has. */
  push<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** How many listeners the renderer has for an event now. */
  listeners(event: EventName): number;
}

/**
 * Main's API as a store sees it, faked: each method a `vi.fn` the test provides, and `on` keeping
 * the listeners so that the test can push events and count who listens. The renderer's modules are
 * loaded afresh for each test (`loadRenderer`), with this fake installed.
 */
export function fakeApi(methods: Methods = {}): FakeApi {
  const listening = new Map<string, Set<Listener>>();
  const on = vi.fn((event: string, listener: Listener) => {
    const set = listening.get(event) ?? new Set();
    listening.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  });
  return {
    api: { ...methods, on } as unknown as VettedApi,
    push(event, payload) {
      for (const listener of [...(listening.get(event) ?? [])]) listener(payload);
    },
    listeners: (event) => listening.get(event)?.size ?? 0,
  };
}

/** Fresh renderer modules (stores hold state at module level) with the fake API installed. */
export async function installFresh(fake: FakeApi): Promise<void> {
  vi.resetModules();
  const { installApi } = await import('#renderer/api.ts');
  installApi(fake.api);
}

/** A promise with its resolve and reject in hand: the test decides when main answers. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Resolves once every promise callback now pending has run. Not a wait for time: the fake API answers
 * with promises that are already settled (or that the test settles), and no store uses a timer, so
 * all that is left to happen is microtasks, and the next turn of the event loop comes after them all.
 */
export const settle = () =>
  new Promise<void>((resolve) => {
    // A message is delivered on a later turn of the event loop (as in the browser, so the DOM types hold).
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
