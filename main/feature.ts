import type { ChannelName } from '../contract/channels.ts';
import type { SettingsStore } from './config/settings-store.ts';
import type { ServiceConnection } from './connection/connection.ts';
import type { EventHub } from './event-hub.ts';
import type { Journal } from './journal/index.ts';
import type { Logger } from './log/logger.ts';
import type { Reconciler } from './reconcile/reconciler.ts';
import type { Handlers } from './serve.ts';
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
