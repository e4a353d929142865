import { z } from 'zod';
import { approvalChannels, approvalEvents } from './approvals.ts';
import { caseChannels } from './case.ts';
import { caseFileChannels } from './case-file.ts';
import { claimChannels, claimEvents } from './claims.ts';
import {
  CustomerDetailSchema,
  CustomerIdSchema,
  CustomerRefSchema,
  ImportAvailabilitySchema,
  PersonalDataSchema,
  ProgressSchema,
  RevealInputSchema,
} from './customers.ts';
import { documentChannels, documentEvents } from './documents.ts';
import { draftChannels, draftEvents } from './drafts.ts';
import { eventDetailChannels } from './event-detail.ts';
import { lockChannels, lockEvents } from './lock.ts';
import { metricsChannels } from './metrics.ts';
import { notificationChannels } from './notifications.ts';
import { periodReportChannels } from './period-report.ts';
import { QueueRowSchema, QueueWindowInputSchema, QueueWindowSchema } from './queue.ts';
import { queueViewChannels, queueViewEvents } from './queue-view.ts';
import { roleChannels, roleEvents } from './roles.ts';
import { sandboxChannels } from './sandbox-panel.ts';
import {
  ConnectionTestSchema,
  ServiceModeSchema,
  ServiceStatusSchema,
  SettingsPatchSchema,
  SettingsViewSchema,
} from './settings.ts';
import { storePresenceChannels, storePresenceEvents } from './store-presence.ts';
import { teamChannels, teamEvents } from './team.ts';
import { teamHistoryChannels, teamHistoryEvents } from './team-history.ts';
import { teamOverviewChannels } from './team-overview.ts';
import { trendsChannels } from './trends.ts';
import { updateChannels, updateEvents } from './updates.ts';
import { vaultChannels } from './vault.ts';
import { webhookChannels, webhookEvents } from './webhooks.ts';

/**
 * The one contract between main, preload and renderer (GitHub Desktop's ipc-shared idea, with a
 * zod schema per channel). Every invoke channel is `namespace.method`; its input is validated in
 * main before any handler runs, and its output is validated in tests.
 */

export const HostKindSchema = z.enum(['electron', 'browser']);

export const AppInfoSchema = z.object({
  name: z.literal('Vetted'),
  version: z.string(),
  host: HostKindSchema,
  serviceMode: ServiceModeSchema,
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

const noInput = z.undefined();

/** Restarting answers before the process goes (the window may not live to read it). */
export const AppRestartSchema = z.object({ restarting: z.literal(true) });
/** How browser mode is restarted (it is started from a terminal): main's refusal and the renderer's notice. */
export const RESTART_BY_HAND = 'Stop it (Ctrl+C where `npm start` runs) and run `npm start` again.';

export const invokeChannels = {
  'app.info': { input: noInput, output: AppInfoSchema },
  'app.ping': {
    input: z.strictObject({ nonce: z.string().min(1).max(64) }),
    output: z.object({ nonce: z.string(), at: z.iso.datetime() }),
  },
  /** Electron relaunches itself (after joining or leaving a team); browser mode refuses, in words. */
  'app.restart': { input: noInput, output: AppRestartSchema },
  'settings.get': { input: noInput, output: SettingsViewSchema },
  'settings.update': { input: SettingsPatchSchema, output: SettingsViewSchema },
  'service.status': { input: noInput, output: ServiceStatusSchema },
  'service.test': { input: noInput, output: ConnectionTestSchema },
  'queue.window': { input: QueueWindowInputSchema, output: QueueWindowSchema },
  'customers.get': { input: CustomerIdSchema, output: CustomerDetailSchema },
  'customers.add': { input: CustomerRefSchema, output: CustomerDetailSchema },
  'customers.refresh': { input: CustomerIdSchema, output: CustomerDetailSchema },
  'customers.reconcile': { input: noInput, output: ProgressSchema },
  'customers.reveal': { input: RevealInputSchema, output: PersonalDataSchema },
  'customers.importAvailability': { input: noInput, output: ImportAvailabilitySchema },
  'customers.import': { input: noInput, output: ProgressSchema },
  ...queueViewChannels,
  ...documentChannels,
  ...caseChannels,
  ...caseFileChannels,
  ...draftChannels,
  ...webhookChannels,
  ...updateChannels,
  ...vaultChannels,
  ...eventDetailChannels,
  ...sandboxChannels,
  ...metricsChannels,
  ...teamChannels,
  ...storePresenceChannels,
  ...teamHistoryChannels,
  ...claimChannels,
  ...roleChannels,
  ...approvalChannels,
  ...teamOverviewChannels,
  ...periodReportChannels,
  ...trendsChannels,
  ...lockChannels,
  ...notificationChannels,
} as const satisfies Record<`${string}.${string}`, { input: z.ZodType; output: z.ZodType }>;

export const pushedEvents = {
  'service.status': ServiceStatusSchema,
  /** A customer's status or data changed: the queue moves the row without a reload. */
  'customer.updated': QueueRowSchema,
  'job.progress': ProgressSchema,
  ...queueViewEvents,
  ...documentEvents,
  ...draftEvents,
  ...webhookEvents,
  ...updateEvents,
  ...teamEvents,
  ...storePresenceEvents,
  ...teamHistoryEvents,
  ...claimEvents,
  ...roleEvents,
  ...approvalEvents,
  ...lockEvents,
} as const satisfies Record<`${string}.${string}`, z.ZodType>;

export type InvokeChannels = typeof invokeChannels;
export type ChannelName = keyof InvokeChannels;
export type ChannelInput<C extends ChannelName> = z.input<InvokeChannels[C]['input']>;
export type ChannelParsedInput<C extends ChannelName> = z.output<InvokeChannels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<InvokeChannels[C]['output']>;

export type PushedEvents = typeof pushedEvents;

/** The one IPC channel main pushes every event on (as `event, payload`); invoke channels are their own names. */
export const PUSHED_EVENT_CHANNEL = 'vetted:event';
export type EventName = keyof PushedEvents;
export type EventPayload<E extends EventName> = z.output<PushedEvents[E]>;

export const channelNames = Object.keys(invokeChannels) as ChannelName[];
export const eventNames = Object.keys(pushedEvents) as EventName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(invokeChannels, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(pushedEvents, name);
}
