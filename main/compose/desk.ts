import path from 'node:path';
import type { AppInfo } from '../../contract/channels.ts';
import { DeskError } from '../../contract/errors.ts';
import type { ServiceStatus, SettingsPatch, SettingsView } from '../../contract/settings.ts';
import type { RunningSandbox, SandboxOptions } from '../../sandbox/index.ts';
import { caseFeature } from '../case/index.ts';
import { documentsFeature } from '../customers/documents.ts';
import { customersFeature } from '../customers/index.ts';
import { createReconciler } from '../customers/reconcile.ts';
import { diagnosticsFeature } from '../diagnostics/index.ts';
import { draftsFeature } from '../drafts/index.ts';
import { createEventHub, type EventHub } from '../event-hub.ts';
import { toAppError } from '../failures.ts';
import type { DeskContext } from '../feature.ts';
import { openJournal } from '../journal/index.ts';
import { describeError, type Logger } from '../log/logger.ts';
import { queueFeature } from '../queue/index.ts';
import { sandboxPanelFeature } from '../sandbox-link/panel.ts';
import { sealedWith } from '../sandbox-link/secrets.ts';
import { type Handlers, serve } from '../serve.ts';
import { type ConnectOptions, connectService, type ServiceConnection } from '../service/connection.ts';
import {
  type ConfLike,
  type ConfLikeOptions,
  openSettings,
  SettingsError,
  type SettingsStore,
} from '../settings/store.ts';
import { openTeam } from '../team/desk-team.ts';
import { teamDeskWebhooksFeature } from '../team/desk-webhooks.ts';
import { teamFeature } from '../team/index.ts';
import { notSelfUpdating, type UpdatesFactory, updatesFeature } from '../updates/index.ts';
import type { Vault } from '../vault/vault.ts';
import { openVaultHandlers } from '../vault/vault-gate.ts';
import { eventDetailFeature } from '../webhooks/event-detail.ts';
import { webhooksFeature } from '../webhooks/index.ts';

export interface DeskOptions {
  host: AppInfo['host'];
  version: string;
  dataDir: string;
  log: Logger;
  /** The host's vault: safeStorage under Electron, a 0600 key file in browser mode. */
  vault: Vault;
  /** A problem met while opening the vault (a corrupt file kept aside), shown in Settings. */
  vaultProblem?: string | null;
  /** electron-store under Electron; conf otherwise. */
  createSettingsStore?: (options: ConfLikeOptions) => ConfLike;
  startSandbox: (options: SandboxOptions) => Promise<RunningSandbox>;
  /** Validate every output and pushed event against the contract (tests, development). */
  strictContract?: boolean;
  /** The host's updater (Electron); without one, the desk says it does not update itself. */
  updates?: UpdatesFactory;
  /** Main's clock for the queue's ageing targets (tests move it); the system clock by default. */
  clock?: () => Date;
  /** The 429 gate's back-off (not a user setting): tests shorten it to stay quick and deterministic. */
  rateLimitBackOff?: ConnectOptions['rateLimitBackOff'];
}

/**
 * The composition root: builds every service from its options and answers every contract
 * channel. Both hosts (Electron and browser mode) serve the same desk.
 */
export interface Desk {
  handlers: Handlers;
  events: EventHub;
  /** The live connection (tests reach the sandbox through it). */
  connection(): ServiceConnection;
  dispatcher<Sender>(isTrustedSender: (sender: Sender) => boolean): ReturnType<typeof serve<Sender>>;
  close(): Promise<void>;
}

/** Settings that decide which service Vetted talks to: changing one reconnects. */
const CONNECTION_KEYS = [
  'serviceMode',
  'baseUrl',
  'clientId',
  'clientSecret',
  'tokenEndpoint',
  'requestRate',
  'requestBurst',
  'caBundlePath',
  'sandboxProfile',
] as const;

export async function createDesk(options: DeskOptions): Promise<Desk> {
  const { log, vault } = options;
  const events = createEventHub({ validate: options.strictContract ?? false });
  const settings = openSettings({
    dir: options.dataDir,
    ...(options.createSettingsStore ? { createStore: options.createSettingsStore } : {}),
  });
  if (settings.problem) log.warn('settings file problem', { problem: settings.problem });
  const storedSecret = vault.get('clientSecret');
  if (storedSecret) log.addSecret(storedSecret);

  const connect = () =>
    connectService({
      settings: settings.get(),
      clientSecret: vault.get('clientSecret'),
      dataDir: options.dataDir,
      log,
      onStatus: (status: ServiceStatus) => events.emit('service.status', status),
      startSandbox: (sandbox: SandboxOptions) =>
        options.startSandbox({ ...sandbox, profile: settings.get().sandboxProfile }),
      sandboxSecrets: sealedWith(vault),
      rateLimitBackOff: options.rateLimitBackOff,
    });
  let connection = await connect();
  // Team mode (Settings → Team, effective from the next start): the team journal; solo: the local one.
  const team = await openTeam(options, settings, vault, {
    client: () => connection.client(),
    onRows: (rows) => {
      for (const row of rows) events.emit('customer.updated', row);
    },
  });
  const journal =
    team?.journal ??
    openJournal({ file: path.join(options.dataDir, 'journal.db'), dataKey: vault.dataKey() });
  const reconciler = createReconciler({
    journal,
    client: () => connection.client(),
    onChange: (row) => events.emit('customer.updated', row),
  });
  const context: DeskContext = {
    dataDir: options.dataDir,
    log,
    vault,
    settings,
    journal,
    events,
    reconciler,
    connection: () => connection,
    ...(team ? { team } : {}),
  };
  const customers = customersFeature(context);
  const queue = queueFeature(context, options.clock ? { clock: options.clock } : {});
  const documents = documentsFeature(context);
  const drafts = draftsFeature(context);
  const webhooks = team ? teamDeskWebhooksFeature(context) : webhooksFeature(context);
  const cases = caseFeature(context);
  const updates = updatesFeature(
    (options.updates ?? notSelfUpdating(options.host, options.version))(context),
  );
  const diagnostics = diagnosticsFeature(context, { webhooks: () => webhooks.figures() });
  const eventDetail = eventDetailFeature(context);
  const sandboxPanel = sandboxPanelFeature(context);
  const membership = teamFeature(context);
  const features = [
    customers,
    queue,
    documents,
    cases,
    drafts,
    webhooks,
    updates,
    eventDetail,
    sandboxPanel,
    membership,
  ];
  const connected = () => {
    for (const feature of features) feature.onConnected?.();
  };

  const view = (): SettingsView => {
    const { serviceMode, baseUrl, clientId, webhookPort, publicWebhookUrl, notifications, sandboxProfile } =
      settings.get();
    const { tokenEndpoint, requestRate, requestBurst, caBundlePath } = settings.get();
    const { ageingTargets, overdueNotifications } = settings.get();
    return {
      tokenEndpoint,
      requestRate,
      requestBurst,
      ...(caBundlePath ? { caBundlePath } : {}),
      serviceMode,
      ...(baseUrl ? { baseUrl } : {}),
      ...(clientId ? { clientId } : {}),
      hasClientSecret: vault.has('clientSecret'),
      webhookPort,
      ...(publicWebhookUrl ? { publicWebhookUrl } : {}),
      notifications,
      sandboxProfile: sandboxProfile ?? 'interface',
      ageingTargets,
      overdueNotifications,
      secretProtection: vault.protection,
      problem: [settings.problem, options.vaultProblem].filter(Boolean).join(' ') || null,
    };
  };

  const updateSettings = async (patch: SettingsPatch): Promise<SettingsView> => {
    applySettingsPatch(settings, vault, log, patch);
    const changed = Object.keys(patch);
    // Which settings, never their values (the client secret is one of them).
    await journal.audit.record({ action: 'settings.change', outcome: 'ok', detail: changed.join(', ') });
    if (CONNECTION_KEYS.some((key) => key in patch)) {
      await connection.close();
      connection = await connect();
      events.emit('service.status', connection.status());
      connected();
    }
    for (const feature of features) await feature.onSettingsChanged?.(changed);
    return view();
  };

  const handlers: Handlers = {
    'app.info': () => ({
      name: 'Vetted',
      version: options.version,
      host: options.host,
      serviceMode: connection.mode,
    }),
    'app.ping': ({ nonce }) => ({ nonce, at: new Date().toISOString() }),
    'settings.get': () => view(),
    'settings.update': (patch) => updateSettings(patch),
    'service.status': () => connection.status(),
    'service.test': () => connection.test(),
    ...customers.handlers,
    ...queue.handlers,
    ...documents.handlers,
    ...cases.handlers,
    ...drafts.handlers,
    ...webhooks.handlers,
    ...updates.handlers,
    ...diagnostics.handlers,
    ...eventDetail.handlers,
    ...sandboxPanel.handlers,
    ...membership.handlers,
    ...openVaultHandlers,
  };
  connected();

  return {
    handlers,
    events,
    connection: () => connection,
    dispatcher: (isTrustedSender) =>
      serve(handlers, {
        host: options.host,
        isTrustedSender,
        validateOutput: options.strictContract ?? false,
        toAppError,
        onUnexpected: (channel, error) => log.error('handler failed', { channel, ...describeError(error) }),
      }),
    async close() {
      for (const feature of features) await feature.close?.();
      await connection.close();
      if (team) await team.close();
      else await journal.close();
    },
  };
}

/** Non-secret fields go to the settings file, the client secret to the vault, never the other way. */
function applySettingsPatch(settings: SettingsStore, vault: Vault, log: Logger, patch: SettingsPatch): void {
  const { clientSecret, ...rest } = patch;
  const plain = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, value ?? undefined]));
  try {
    settings.update(plain);
  } catch (error) {
    if (error instanceof SettingsError) {
      const fields = Object.fromEntries(error.fields.map((field) => [`/${field}`, error.message]));
      throw new DeskError('InvalidSettings', error.message, fields);
    }
    throw error;
  }
  if (clientSecret === null) vault.delete('clientSecret');
  if (clientSecret) {
    log.addSecret(clientSecret);
    vault.set('clientSecret', clientSecret);
  }
}
