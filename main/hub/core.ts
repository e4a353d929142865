// The hub's core: the desk core without a window, on the team journal. It always drains the team outbox and
// follows the team store; while it holds the listener role (run-hub.ts) it also runs the webhook feature —
// listener, subscriptions, catch-up — and reconciles the team's customers, once for the whole team.
import { startSandbox } from '../../sandbox/index.ts';
import { createReconciler } from '../customers/reconcile.ts';
import { createEventHub } from '../event-hub.ts';
import type { DeskContext } from '../feature.ts';
import { describeError } from '../log/logger.ts';
import { sealedWith } from '../sandbox-link/secrets.ts';
import { connectService, type ServiceConnection } from '../service/connection.ts';
import type { SettingsStore } from '../settings/store.ts';
import { openTeamRuntime } from '../team/runtime.ts';
import { webhooksFeature } from '../webhooks/index.ts';
import type { HubRunContext } from './cli.ts';
import type { HubCore, HubRoles } from './run-hub.ts';

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
  const settings = withRunOptions(config.settings, run.publicUrl);
  const events = createEventHub({ validate: false });
  const secret = vault.get('clientSecret');
  if (secret) log.addSecret(secret);
  const connection: ServiceConnection = await connectService({
    settings: settings.get(),
    clientSecret: secret,
    dataDir,
    log,
    onStatus: (status) => log.info('hub: service', { state: status.state }),
    startSandbox: (sandbox) => startSandbox({ ...sandbox, profile: settings.get().sandboxProfile }),
    sandboxSecrets: sealedWith(vault),
  });
  const runtime = await openTeamRuntime({
    team,
    role: 'hub',
    drains: true,
    dataDir,
    dataKey: vault.dataKey(),
    log,
    client: () => connection.client(),
    // Nobody looks at the hub's queue: desks follow the store themselves.
    onCustomersChanged: () => undefined,
  });
  const reconciler = createReconciler({
    journal: runtime.journal,
    client: () => connection.client(),
    onChange: (row) => events.emit('customer.updated', row),
  });
  const context: DeskContext = {
    dataDir,
    log,
    vault,
    settings,
    journal: runtime.journal,
    events,
    reconciler,
    connection: () => connection,
  };
  let webhooks: ReturnType<typeof webhooksFeature> | null = null;
  return {
    async startListener() {
      webhooks = webhooksFeature(context, run.port === undefined ? {} : { port: run.port });
      const listener = await webhooks.listening();
      // On a real service the team's one subscription points at the tunnel (--public-url or settings).
      await webhooks.subscribePublicUrl().catch((error: unknown) => {
        log.warn('hub: could not subscribe the public URL', describeError(error));
      });
      webhooks.onConnected?.();
      void reconciler
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
      await runtime.close();
      await connection.close();
    },
  };
}
