import type { VettedApi } from '#contract/bridge.ts';
import { installApi } from './api.ts';
import { useLockStore } from './features/lock/lock-store.ts';
import { useQueueStore } from './features/queue/queue-store.ts';
import { useVaultStore } from './features/vault/vault-store.ts';
import { useAppStore } from './store.ts';

/**
 * What the first screen needs, asked for together as soon as the page runs rather than one after the other
 * behind the first render: whether the vault is open, whether the desk is locked and, when the address opens
 * the queue, its first page. The gates still decide what shows: queue rows reach the screen only once the
 * vault is open and the desk unlocked.
 */
export function startAsking(host: VettedApi): void {
  installApi(host);
  void useVaultStore.getState().load();
  void useLockStore.getState().load();
  const { view, section } = useAppStore.getState();
  const queue = useQueueStore.getState();
  // Another section would make its own query once routed: this answer would go unused.
  if (view === 'queue' && section === queue.section) queue.prefetch();
}
