import type { ChannelName } from '#contract/channels.ts';
import type { Journal } from '../data/journal/index.ts';
import type { SettingsStore } from '../ground/config/settings-store.ts';
import type { EventHub } from '../ground/event-hub.ts';
import type { Logger } from '../ground/log/logger.ts';
import type { Notifier } from '../ground/notifier.ts';
import type { Handlers } from '../ground/serve.ts';
import type { Vault } from '../ground/vault/vault.ts';
import type { ServiceConnection } from '../sync/connection/connection.ts';
import type { Reconciler } from '../sync/reconcile/reconciler.ts';

/** What every feature of the desk is built from. The connection changes when settings do. */
export interface DeskContext {
  dataDir: string;
  log: Logger;
  vault: Vault;
  settings: SettingsStore;
  journal: Journal;
  events: EventHub;
  /** Every desktop notification goes through it: the reviewer's switches, a minute per case, the focus. */
  notifier: Notifier;
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
