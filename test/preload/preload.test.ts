import { describe, expect, it, vi } from 'vitest';
import { channelNames } from '#contract/channels.ts';

const exposed = vi.hoisted(() => new Map<string, unknown>());
const ipc = vi.hoisted(() => ({
  invoke: vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } })),
  on: vi.fn(),
  removeListener: vi.fn(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: ipc,
}));

describe('preload', () => {
  it('exposes only window.vetted: one function per channel and on(), never ipcRenderer', async () => {
    await import('#preload/index.ts');
    expect([...exposed.keys()]).toEqual(['vetted']);
    const vetted = exposed.get('vetted') as Record<string, unknown>;
    const namespaces = new Set(channelNames.map((channel) => channel.split('.')[0]));
    expect(Object.keys(vetted).sort()).toEqual([...namespaces, 'on'].sort());
    expect(Object.isFrozen(vetted)).toBe(true);
    const serialized = JSON.stringify(vetted, (_key, value) => (typeof value === 'function' ? 'fn' : value));
    expect(serialized).not.toMatch(/ipc|send|invoke/i);

    const app = vetted.app as Record<string, (input?: unknown) => Promise<unknown>>;
    expect(await app.ping?.({ nonce: 'p' })).toEqual({
      ok: true,
      value: { channel: 'app.ping', input: { nonce: 'p' } },
    });
  });

  it('relays pushed events only to subscribed listeners and unsubscribes cleanly', async () => {
    await import('#preload/index.ts');
    const vetted = exposed.get('vetted') as {
      on: (event: string, listener: (payload: unknown) => void) => () => void;
    };
    const seen: unknown[] = [];
    const off = vetted.on('service.status', (payload) => seen.push(payload));
    const relay = ipc.on.mock.calls[0]?.[1] as (event: unknown, name: unknown, payload: unknown) => void;
    relay({}, 'service.status', { at: 'now' });
    relay({}, 'something.else', { at: 'never' });
    expect(seen).toEqual([{ at: 'now' }]);
    off();
    expect(ipc.removeListener).toHaveBeenCalledTimes(1);
    expect(() => vetted.on('not.an.event', () => {})).toThrow(/Unknown event/);
  });
});
