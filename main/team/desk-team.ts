// Opening team mode for a desk at start: the joined team's runtime, or null (solo). A team store that cannot
// be opened (unreachable, another schema, a key that no longer matches) does not stop the desk: it starts on
// its own journal, logs why, and Settings → Team shows the store's state and that a restart is needed.
import type { QueueRow } from '#contract/queue.ts';
import type { ServiceClient } from '../data/service/index.ts';
import type { SettingsStore } from '../ground/config/settings-store.ts';
import { describeError, type Logger } from '../ground/log/logger.ts';
import type { Vault } from '../ground/vault/vault.ts';
import { queueRowOf } from '../sync/reconcile/queue-row.ts';
import { joinedTeam, openTeamRuntime, type TeamRuntime } from './runtime.ts';

export interface OpenTeamHooks {
  client(): ServiceClient;
  /** Rows another desk, the hub or this desk changed, as the queue shows them. */
  onRows(rows: QueueRow[]): void;
}

export async function openTeam(
  options: { dataDir: string; log: Logger; clock?: () => Date },
  settings: Pick<SettingsStore, 'get'>,
  vault: Pick<Vault, 'get' | 'dataKey'>,
  hooks: OpenTeamHooks,
): Promise<TeamRuntime | null> {
  const joined = joinedTeam(settings, vault);
  if (!joined) return null;
  let runtime: TeamRuntime | undefined;
  try {
    runtime = await openTeamRuntime({
      team: joined,
      role: 'desk',
      drains: settings.get().serviceMode !== 'sandbox',
      dataDir: options.dataDir,
      dataKey: vault.dataKey(),
      log: options.log,
      ...(options.clock ? { clock: options.clock } : {}),
      client: hooks.client,
      onCustomersChanged(ids) {
        void rowsOf(ids).then(hooks.onRows, (error: unknown) =>
          options.log.warn('team changes not shown', describeError(error)),
        );
      },
    });
  } catch (error) {
    options.log.warn('team store not opened: working on this desk’s own journal', describeError(error));
    return null;
  }
  return runtime;

  // Changes applied while the runtime is still opening are in the queue the screen loads when it opens.
  async function rowsOf(ids: readonly string[]): Promise<QueueRow[]> {
    const rows: QueueRow[] = [];
    for (const id of ids) {
      const customer = await runtime?.local.customers.get(id);
      if (customer) rows.push(queueRowOf(customer));
    }
    return rows;
  }
}
