import type { IpcRenderer } from 'electron';
import type { Transport } from '#contract/bridge.ts';
import { PUSHED_EVENT_CHANNEL } from '#contract/channels.ts';

/** Wraps ipcRenderer for the bridge. The ipcRenderer object itself never reaches the page. */
export function ipcTransport(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): Transport {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const relay = (_: unknown, event: unknown, payload: unknown) => {
    if (typeof event !== 'string') return;
    for (const listener of listeners) listener(event, payload);
  };
  return {
    invoke: (channel, input) => ipc.invoke(channel, input),
    subscribe(listener) {
      if (listeners.size === 0) ipc.on(PUSHED_EVENT_CHANNEL, relay);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) ipc.removeListener(PUSHED_EVENT_CHANNEL, relay);
      };
    },
  };
}
