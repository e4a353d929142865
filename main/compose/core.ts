// The core a desk and a hub share: the event stream, the connection to the service (renewed when settings
// change it), the journal of the variant chosen by the caller, and the reconciler on it. compose/desk.ts adds
// the features a reviewer's window answers; compose/hub.ts the roles a hub plays.
import type { ServiceStatus } from '#contract/settings.ts';
import type { RunningSandbox, SandboxOptions } from '#sandbox/index.ts';
import type { Journal } from '../data/journal/index.ts';
import type { ServiceClient } from '../data/service/index.ts';
import type { DeskContext } from '../features/feature.ts';
import { sealedWith } from '../features/sandbox-link/secrets.ts';
import type { SettingsStore } from '../ground/config/settings-store.ts';
import { createEventHub, type EventHub } from '../ground/event-hub.ts';
import type { Logger } from '../ground/log/logger.ts';
import { createNotifier } from '../ground/notifier.ts';
import type { Vault } from '../ground/vault/vault.ts';
import {
  type ConnectOptions,
  connectService,
  type ServiceConnection,
} from '../sync/connection/connection.ts';
import { createReconciler } from '../sync/reconcile/reconciler.ts';

/** What the core needs of a variant: where it reads and writes, and how to let go of it. */
export interface JournalOwner {
  readonly journal: Journal;
  close(): Promise<void>;
}

/** What a variant is opened with: the service as it is now, and the event stream. */
export interface VariantHooks {
  client(): ServiceClient;
  events: EventHub;
}

export interface CoreOptions<V extends JournalOwner> {
  dataDir: string;
  log: Logger;
  vault: Vault;
  settings: SettingsStore;
  startSandbox(options: SandboxOptions): Promise<RunningSandbox>;
  /** Validate every pushed event against the contract (tests, development). */
  strictContract?: boolean;
  rateLimitBackOff?: ConnectOptions['rateLimitBackOff'];
  /** Main's clock (the notifications' minute per case); the system clock by default. */
  clock?: () => Date;
  /** Where the service's status goes: a window (pushed), or a hub's log. */
  onStatus(status: ServiceStatus, events: EventHub): void;
  /** Opens the variant once the service is connected (a team journal drains through it). */
  openVariant(hooks: VariantHooks): Promise<V>;
}

export interface Core<V extends JournalOwner> {
  readonly context: DeskContext;
  readonly variant: V;
  /** Closes the connection and opens one from the settings as they are now. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

export async function openCore<V extends JournalOwner>(options: CoreOptions<V>): Promise<Core<V>> {
  const { log, vault, settings } = options;
  const events = createEventHub({ validate: options.strictContract ?? false });
  const storedSecret = vault.get('clientSecret');
  if (storedSecret) log.addSecret(storedSecret);

  const connect = () =>
    connectService({
      settings: settings.get(),
      clientSecret: vault.get('clientSecret'),
      dataDir: options.dataDir,
      log,
      onStatus: (status) => options.onStatus(status, events),
      startSandbox: (sandbox) => options.startSandbox({ ...sandbox, profile: settings.get().sandboxProfile }),
      sandboxSecrets: sealedWith(vault),
      rateLimitBackOff: options.rateLimitBackOff,
    });
  let connection: ServiceConnection = await connect();
  const client = () => connection.client();
  const variant = await options.openVariant({ client, events });
  const reconciler = createReconciler({
    journal: variant.journal,
    client,
    onChange: (row) => events.emit('customer.updated', row),
  });
  const context: DeskContext = {
    dataDir: options.dataDir,
    log,
    vault,
    settings,
    journal: variant.journal,
    events,
    notifier: createNotifier({ settings, events, ...(options.clock ? { clock: options.clock } : {}) }),
    reconciler,
    connection: () => connection,
  };
  return {
    context,
    variant,
    async reconnect() {
      await connection.close();
      connection = await connect();
    },
    // The variant first: a team outbox's drainer finishes what it is sending while the service is still there.
    async close() {
      await variant.close();
      await connection.close();
    },
  };
}
