// The desk: the core (compose/core.ts) on the variant this desk runs, solo or its team's, chosen here once,
// and every feature a reviewer's window answers. Both hosts (Electron and browser mode) serve the same desk.
import os from 'node:os';
import type { AppInfo } from '#contract/channels.ts';
import type { RunningSandbox, SandboxOptions } from '#sandbox/index.ts';
import { approvalsFeature } from '../features/approvals/index.ts';
import { caseFileFeature } from '../features/case/case-file.ts';
import { caseFeature } from '../features/case/index.ts';
import { claimsFeature } from '../features/claims/index.ts';
import { teamOverviewFeature } from '../features/claims/overview.ts';
import { documentsFeature } from '../features/customers/documents.ts';
import { customersFeature } from '../features/customers/index.ts';
import { diagnosticsFeature } from '../features/diagnostics/index.ts';
import { draftsFeature } from '../features/drafts/index.ts';
import { type IdleLockOptions, idleLockFeature } from '../features/idle-lock/index.ts';
import { notificationsFeature } from '../features/notifications/index.ts';
import { queueFeature } from '../features/queue/index.ts';
import { periodReportFeature } from '../features/report/index.ts';
import { sandboxPanelFeature } from '../features/sandbox-link/panel.ts';
import { SAMPLES_IN_A_TEAM, samplesFeature } from '../features/sandbox-link/samples.ts';
import { settingsFeature } from '../features/settings/index.ts';
import { trendsFeature } from '../features/trends/index.ts';
import { notSelfUpdating, type UpdatesFactory, updatesFeature } from '../features/updates/index.ts';
import { eventDetailFeature } from '../features/webhooks/event-detail.ts';
import { type ConfLike, type ConfLikeOptions, openSettings } from '../ground/config/settings-store.ts';
import type { EventHub } from '../ground/event-hub.ts';
import { gateHandlers, lockedEvents } from '../ground/lock/lock-gate.ts';
import { describeError, type Logger } from '../ground/log/logger.ts';
import { type Handlers, serve } from '../ground/serve.ts';
import type { Vault } from '../ground/vault/vault.ts';
import { openVaultHandlers } from '../ground/vault/vault-gate.ts';
import type { ServiceConnection } from '../sync/connection/connection.ts';
import { openTeam } from '../team/desk-team.ts';
import { teamDesk } from '../team/desk-variant.ts';
import { teamFeature } from '../team/index.ts';
import type { DeskVariant } from '../variant/index.ts';
import { localDesk } from '../variant/local.ts';
import { toAppError } from './app-errors.ts';
import { appInfoHandlers } from './app-info.ts';
import { type Core, type CoreOptions, openCore } from './core.ts';

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
  rateLimitBackOff?: CoreOptions<DeskVariant>['rateLimitBackOff'];
  /** Browser mode: where the renderer is reached once the host listens (a case's address); null before. */
  browserOrigin?: () => string | null;
  /** The idle lock's clock, timer and hash cost (tests). */
  lock?: Pick<IdleLockOptions, 'now' | 'every' | 'scrypt'>;
}

/** The app core both hosts serve: the handlers of every contract channel, and the events it pushes. */
export interface Desk {
  /** Every channel, those holding personal data refused while the desk is locked. */
  handlers: Handlers;
  /** The desk's events; a subscriber hears none holding personal data while the desk is locked. */
  events: EventHub;
  /** The OS locked its screen or the machine is going to sleep: the desk locks (the Electron glue). */
  lock: ReturnType<typeof idleLockFeature>['lock'];
  /** The live connection (tests reach the sandbox through it). */
  connection(): ServiceConnection;
  dispatcher<Sender>(isTrustedSender: (sender: Sender) => boolean): ReturnType<typeof serve<Sender>>;
  close(): Promise<void>;
}

type DeskCore = Core<DeskVariant>;

export async function createDesk(options: DeskOptions): Promise<Desk> {
  const core = await openDeskCore(options);
  const { context } = core;
  const { features, handlers: featureHandlers } = deskFeatures(core, options);
  const connected = () => {
    for (const feature of features) feature.onConnected?.();
  };
  const settingsChannels = settingsFeature(context, {
    vaultProblem: options.vaultProblem ?? null,
    reconnect: () => core.reconnect(),
    async afterChange(changed, reconnected) {
      if (reconnected) connected();
      for (const feature of features) await feature.onSettingsChanged?.(changed);
    },
  });
  const { lock } = featureHandlers;
  const handlers: Handlers = gateHandlers(
    {
      ...appInfoHandlers(context, options),
      ...settingsChannels.handlers,
      ...featureHandlers.channels,
      ...openVaultHandlers,
    },
    lock.isLocked,
  );
  connected();
  const events: EventHub = {
    emit: (event, payload) => context.events.emit(event, payload),
    subscribe: (listener) => context.events.subscribe(lockedEvents(listener, lock.isLocked)),
  };
  return {
    handlers,
    events,
    lock: lock.lock,
    connection: () => context.connection(),
    dispatcher: (isTrustedSender) =>
      serve(handlers, {
        host: options.host,
        isTrustedSender,
        validateOutput: options.strictContract ?? false,
        toAppError,
        onUnexpected: (channel, error) =>
          options.log.error('handler failed', { channel, ...describeError(error) }),
      }),
    async close() {
      for (const feature of features) await feature.close?.();
      await core.close();
    },
  };
}

/** The settings, and the core on the variant this desk runs: its team's, or solo on its own journal. */
async function openDeskCore(options: DeskOptions): Promise<DeskCore> {
  const { log, vault } = options;
  const settings = openSettings({
    dir: options.dataDir,
    ...(options.createSettingsStore ? { createStore: options.createSettingsStore } : {}),
  });
  if (settings.problem) log.warn('settings file problem', { problem: settings.problem });
  return openCore<DeskVariant>({
    ...options,
    settings,
    onStatus: (status, events) => events.emit('service.status', status),
    // Team mode (Settings → Team, effective from the next start) runs on the team's store; a desk that has
    // not joined, or whose team store cannot be opened now, on its own journal.
    openVariant: async ({ client, events }) => {
      const team = await openTeam(options, settings, vault, {
        client,
        onRows: (rows) => {
          for (const row of rows) events.emit('customer.updated', row);
        },
      });
      return team
        ? teamDesk(team, log)
        : localDesk({ dataDir: options.dataDir, dataKey: vault.dataKey(), settings });
    },
  });
}

/** Every feature of the desk but settings: the list that hears of connections, and the channels they answer. */
function deskFeatures(core: DeskCore, options: DeskOptions) {
  const { context, variant } = core;
  const cases = caseWork(core, options);
  const services = deskServices(core, options);
  const { membership, lock } = membershipAndLock(core, options);
  const features = [
    lock,
    cases.customers,
    cases.queue,
    cases.documents,
    cases.cases,
    cases.caseFile,
    cases.drafts,
    services.webhooks,
    services.updates,
    services.eventDetail,
    services.sandboxPanel,
    membership,
    cases.claims,
    cases.fourEyes,
    cases.teamOverview,
    cases.trends,
    cases.report,
  ];
  // Sample customers go through the desk's own channels, as a reviewer's would; a team's desk refuses them.
  const samples = samplesFeature(context, {
    desk: {
      ...cases.drafts.handlers,
      ...cases.cases.handlers,
      ...cases.documents.handlers,
      ...cases.queue.handlers,
    },
    refusal: variant.teamId === null ? null : SAMPLES_IN_A_TEAM,
  });
  const channels = {
    ...cases.customers.handlers,
    ...cases.queue.handlers,
    ...cases.documents.handlers,
    ...cases.cases.handlers,
    ...cases.caseFile.handlers,
    ...cases.drafts.handlers,
    ...services.webhooks.handlers,
    ...services.updates.handlers,
    ...services.diagnostics.handlers,
    ...services.eventDetail.handlers,
    ...services.sandboxPanel.handlers,
    ...services.notifications.handlers,
    ...samples.handlers,
    ...membership.handlers,
    ...cases.claims.handlers,
    ...cases.fourEyes.handlers,
    ...cases.teamOverview.handlers,
    ...cases.trends.handlers,
    ...cases.report.handlers,
    ...lock.handlers,
  };
  return { features, handlers: { channels, lock } };
}

/** The features of the reviewers' cases, alone or shared: customers, queue, documents, cases, drafts, claims. */
function caseWork({ context, variant }: DeskCore, options: DeskOptions) {
  const { teamwork, approvals } = variant;
  const clock = clockOf(options);
  const customers = customersFeature(context, { reconcile: variant.reconcile, approvals });
  const queue = queueFeature(context, { ...clock, claims: teamwork.claims });
  const documents = documentsFeature(context, { claims: teamwork.claims });
  const cases = caseFeature(context, { roles: teamwork.roles, approvals });
  const caseFile = caseFileFeature(context, {
    claims: teamwork.claims,
    roles: teamwork.roles,
    desk: { name: os.hostname(), version: options.version },
    ...clock,
  });
  const drafts = draftsFeature(context, { destination: variant.drafts, claims: teamwork.claims, approvals });
  const fourEyes = approvalsFeature(context, { approvals, roles: teamwork.roles, retry: drafts.retry });
  const claims = claimsFeature(context, {
    teamwork,
    ...clock,
    ...(options.browserOrigin ? { browserOrigin: options.browserOrigin } : {}),
  });
  const teamOverview = teamOverviewFeature(context, { overview: teamwork.overview, roles: teamwork.roles });
  const trends = trendsFeature(context, { source: variant.trends, roles: teamwork.roles, ...clock });
  const report = periodReportFeature(context, {
    figures: teamwork.period,
    trends: variant.trends,
    roles: teamwork.roles,
    desk: { name: os.hostname(), version: options.version },
    ...clock,
  });
  return {
    customers,
    queue,
    documents,
    cases,
    caseFile,
    drafts,
    fourEyes,
    claims,
    teamOverview,
    trends,
    report,
  };
}

/** The desk's own panels: webhooks, updates, diagnostics, an event's detail, the sandbox, what is on screen. */
function deskServices({ context, variant }: DeskCore, options: DeskOptions) {
  const webhooks = variant.webhooks(context);
  const updates = updatesFeature(
    (options.updates ?? notSelfUpdating(options.host, options.version))(context),
  );
  const diagnostics = diagnosticsFeature(context, { webhooks: () => webhooks.figures() });
  return {
    webhooks,
    updates,
    diagnostics,
    eventDetail: eventDetailFeature(context),
    sandboxPanel: sandboxPanelFeature(context),
    notifications: notificationsFeature(context),
  };
}

/** The desk's team membership, and its idle lock (whose longest wait a team may set). */
function membershipAndLock({ context, variant }: DeskCore, options: DeskOptions) {
  const { teamwork } = variant;
  const membership = teamFeature(context, {
    startedOn: variant.teamId,
    deskJournal: variant.deskJournal,
    presence: variant.storePresence,
    ...clockOf(options),
  });
  // The team's maximum is a team setting; a solo desk has none.
  const lock = idleLockFeature(context, {
    ...options.lock,
    deskName: os.hostname(),
    reviewer: async () => (await teamwork.roles.me()).reviewer,
    teamMaximum:
      variant.teamId === null
        ? async () => null
        : async () => (await teamwork.settings.get()).lockIdleMaxMinutes,
  });
  return { membership, lock };
}

const clockOf = (options: DeskOptions) => (options.clock ? { clock: options.clock } : {});
