// Settings: what the Settings screen shows and changes, and the connection those settings decide (its status
// and its test). Non-secret settings go to the settings file, the client secret to the vault, never the
// other way; a change to a setting that decides which service Vetted talks to renews the connection.
import { DeskError } from '#contract/errors.ts';
import type { SettingsPatch, SettingsView } from '#contract/settings.ts';
import { SettingsError, type SettingsStore } from '#main/ground/config/settings-store.ts';
import type { Logger } from '#main/ground/log/logger.ts';
import type { Vault } from '#main/ground/vault/vault.ts';
import type { DeskContext, Feature } from '../feature.ts';

type SettingsChannel = 'settings.get' | 'settings.update' | 'service.status' | 'service.test';

/** Settings that decide which service Vetted talks to: changing one reconnects. */
export const CONNECTION_KEYS = [
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

export interface SettingsFeatureOptions {
  /** A problem met while opening the vault (a corrupt file kept aside), shown with the settings. */
  vaultProblem?: string | null;
  /** Renews the connection from the settings as they are now. */
  reconnect(): Promise<void>;
  /** After every change (the connection, if touched, already renewed): the other features follow. */
  afterChange(changed: readonly string[], reconnected: boolean): Promise<void>;
}

export function settingsFeature(
  context: DeskContext,
  options: SettingsFeatureOptions,
): Feature<SettingsChannel> {
  const { settings, vault, log, journal } = context;

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

  const update = async (patch: SettingsPatch): Promise<SettingsView> => {
    applySettingsPatch(settings, vault, log, patch);
    const changed = Object.keys(patch);
    // Which settings, never their values (the client secret is one of them).
    await journal.audit.record({ action: 'settings.change', outcome: 'ok', detail: changed.join(', ') });
    const reconnect = CONNECTION_KEYS.some((key) => key in patch);
    if (reconnect) {
      await options.reconnect();
      context.events.emit('service.status', context.connection().status());
    }
    await options.afterChange(changed, reconnect);
    return view();
  };

  return {
    handlers: {
      'settings.get': () => view(),
      'settings.update': (patch) => update(patch),
      'service.status': () => context.connection().status(),
      'service.test': () => context.connection().test(),
    },
  };
}

/** Non-secret fields go to the settings file, the client secret to the vault, never the other way. */
function applySettingsPatch(settings: SettingsStore, vault: Vault, log: Logger, patch: SettingsPatch): void {
  const { clientSecret, notifications, ...rest } = patch;
  const plain: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, value ?? undefined]),
  );
  // Some switches (or, as older windows send it, one boolean for all): the others stay as they are.
  if (notifications !== undefined) {
    plain.notifications =
      typeof notifications === 'boolean'
        ? notifications
        : { ...settings.get().notifications, ...notifications };
  }
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
