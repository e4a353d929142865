import type { ChannelName } from '../contract/channels.ts';
import type { Reconciler } from './customers/reconcile.ts';
import type { EventHub } from './event-hub.ts';
import type { Journal } from './journal/index.ts';
import type { Logger } from './log/logger.ts';
import type { Handlers } from './serve.ts';
import type { ServiceConnection } from './service/connection.ts';
import type { SettingsStore } from './settings/store.ts';
import type { TeamRuntime } from './team/runtime.ts';
import type { Vault } from './vault/vault.ts';

/** What every feature of the desk is built from. The connection changes when settings do. */
export interface DeskContext {
  dataDir: string;
  log: Logger;
  vault: Vault;
  settings: SettingsStore;
  journal: Journal;
  events: EventHub;
  reconciler: Reconciler;
  connection(): ServiceConnection;
  /** Team mode: the team store, its replica and the team outbox (absent in solo mode). */
  team?: TeamRuntime;
}

/** A slice of the app: the contract channels it answers, and what it does as the desk lives. */
export interface Feature<C extends ChannelName> {
  handlers: Pick<Handlers, C>;
  /** After start-up and after every reconnection to a (possibly other) service. */
  onConnected?(): void;
  /** After the reviewer changed settings (the connection, if touched, is already renewed). */
  onSettingsChanged?(changed: readonly string[]): Promise<void> | void;
  close?(): Promise<void> | void;
}
