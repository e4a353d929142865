// The hub: the core a desk has (compose/core.ts), without a window, on the team journal. It always drains the team outbox and
// follows the team store; while it holds the listener role (run-hub.ts) it also runs the webhook feature —
// listener, subscriptions, catch-up — and reconciles the team's customers, once for the whole team.
import { startSandbox } from '#sandbox/index.ts';
import { webhooksFeature } from '../features/webhooks/index.ts';
import { moveVaultSecrets } from '../features/webhooks/subscription-secrets.ts';
import type { SettingsStore } from '../ground/config/settings-store.ts';
import { describeError } from '../ground/log/logger.ts';
import type { HubRunContext } from '../team/hub/cli.ts';
import type { HubCore, HubRoles } from '../team/hub/run-hub.ts';
import { openTeamRuntime } from '../team/runtime.ts';
import { openCore } from './core.ts';

/** The roles `npm run hub -- run` plays: the core composed here. */
export function hubRoles(context: HubRunContext): HubRoles {
  return { startCore: () => startHubCore(context) };
}

/** `--public-url` for this run only: the settings file keeps what `service` stored. */
function withRunOptions(settings: SettingsStore, publicUrl: string | undefined): SettingsStore {
  if (!publicUrl) return settings;
  return {
    get: () => ({ ...settings.get(), publicWebhookUrl: publicUrl }),
    update: (patch) => settings.update(patch),
    get problem() {
      return settings.problem;
    },
    get path() {
      return settings.path;
    },
  };
}

export async function startHubCore(run: HubRunContext): Promise<HubCore> {
  const { config, team, log } = run;
  const { vault, dataDir } = config;
  const core = await openCore({
    dataDir,
    log,
    vault,
    settings: withRunOptions(config.settings, run.publicUrl),
    startSandbox,
    onStatus: (status) => log.info('hub: service', { state: status.state }),
    openVariant: ({ client }) =>
      openTeamRuntime({
        team,
        role: 'hub',
        drains: true,
        dataDir,
        dataKey: vault.dataKey(),
        log,
        client,
        // Nobody looks at the hub's queue: desks follow the store themselves.
        onCustomersChanged: () => undefined,
      }),
  });
  const { context } = core;
  let webhooks: ReturnType<typeof webhooksFeature> | null = null;
  return {
    async startListener() {
      // The team's subscription secrets, whichever hub made them; a hub that kept its own in its vault (before
      // the team store held them) hands them over first.
      const secrets = core.variant.webhookSecrets;
      await secrets.load();
      const moved = await moveVaultSecrets(vault, secrets);
      if (moved > 0) log.info('hub: webhook secrets moved from the vault into the team store', { moved });
      // Nobody looks at a hub's event log as deliveries arrive: no event rows announced, no names read for them.
      webhooks = webhooksFeature(context, secrets, {
        headless: true,
        ...(run.port === undefined ? {} : { port: run.port }),
      });
      const listener = await webhooks.listening();
      // On a real service the team's one subscription points at the tunnel (--public-url or settings).
      await webhooks.subscribePublicUrl().catch((error: unknown) => {
        log.warn('hub: could not subscribe the public URL', describeError(error));
      });
      webhooks.onConnected?.();
      void context.reconciler
        .refreshAll(() => undefined)
        .then(
          ({ done, failed }) => log.info('hub: customers reconciled', { done, failed }),
          (error: unknown) => log.warn('hub: reconcile failed', describeError(error)),
        );
      return { url: listener.url ?? `(not listening: ${listener.problem ?? 'unknown'})` };
    },
    async stopListener() {
      const stopping = webhooks;
      webhooks = null;
      await stopping?.close?.();
    },
    async close() {
      await webhooks?.close?.();
      webhooks = null;
      await core.close();
    },
  };
}
