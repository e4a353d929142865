import { z } from 'zod';
import { ServiceCustomerIdSchema } from './service-id.ts';

/**
 * Being told (#39): which moments become a desktop notification, each one the reviewer can turn off in
 * Settings. Main decides whether one is shown (the switch, at most one per case per minute, none while the
 * window is focused on that case); the host shows it (Electron natively, browser mode through the Web
 * Notifications API once allowed, else a toast).
 */
export const NOTIFICATION_KINDS = [
  'assigned',
  'approvalWaiting',
  'approvalDecided',
  'takenOver',
  'status',
] as const;
export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

/** What each switch says in Settings. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  assigned: 'A case is handed to me',
  approvalWaiting: 'A four-eyes request waits for me (leads)',
  approvalDecided: 'My four-eyes request is approved or rejected',
  takenOver: 'A case I hold is taken over, reassigned or its claim expires',
  status: 'A customer’s status changes',
};

/** One switch per kind; every one on unless turned off. */
export const NotificationSwitchesSchema = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean()])) as Record<
    NotificationKind,
    z.ZodBoolean
  >,
);
export type NotificationSwitches = z.infer<typeof NotificationSwitchesSchema>;

export const allNotifications = (on: boolean): NotificationSwitches =>
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, on])) as NotificationSwitches;

/**
 * A change to the switches: some kinds, or a boolean for all of them (what the one switch of older versions
 * sent).
 */
export const NotificationSwitchesPatchSchema = z.union([
  z.boolean(),
  NotificationSwitchesSchema.partial().strict(),
]);

/** What the window shows now: the case on screen (or none) and whether the window has the focus. */
export const ViewingSchema = z.strictObject({
  customerId: ServiceCustomerIdSchema.nullable(),
  focused: z.boolean(),
});
export type Viewing = z.infer<typeof ViewingSchema>;

export const notificationChannels = {
  /** The renderer says which case is on screen and whether the window is focused (no notice for it then). */
  'notifications.viewing': { input: ViewingSchema, output: z.object({ ok: z.literal(true) }) },
} as const;
