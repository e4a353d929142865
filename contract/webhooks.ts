import { z } from 'zod';
import { SubscriptionIdSchema } from './service-id.ts';

/**
 * Webhook subscriptions, the local listener, the event log and catching up. No schema here holds
 * a webhook secret: Vetted creates each one, keeps it in the vault, and never shows it again.
 */

/** The service's limit per application (its `MaxNumberOfResources` error beyond it). */
export const MAX_SUBSCRIPTIONS = 10;

/** What the Webhooks screen says before a reviewer confirms a deletion. */
export const DELETE_SUBSCRIPTION_WARNING =
  'Deleting a subscription also deletes, on the service, the record of every delivery made to it. ' +
  'Events already received stay in Vetted’s event log.';

export const SubscriptionViewSchema = z.object({
  id: z.string(),
  url: z.string(),
  created: z.string(),
  paused: z.boolean(),
  /** Vetted holds this subscription's secret, so it can verify what the service sends through it. */
  ours: z.boolean(),
  /** Where it delivers: Vetted's own listener directly (sandbox), the public URL in settings, or elsewhere. */
  target: z.enum(['listener', 'public-url', 'elsewhere']),
});
export type SubscriptionView = z.infer<typeof SubscriptionViewSchema>;

export const ListenerStatusSchema = z.object({
  listening: z.boolean(),
  /** e.g. `http://127.0.0.1:8789/webhooks`: where a tunnel must forward to. */
  url: z.string().nullable(),
  port: z.number().int().nullable(),
  /** The port in settings; differs from `port` when it was taken and another one was used. */
  configuredPort: z.number().int(),
  problem: z.string().nullable(),
  /** Requests refused since Vetted started (bad signature, too large, too slow…); see the security log. */
  rejected: z.number().int(),
});
export type ListenerStatus = z.infer<typeof ListenerStatusSchema>;

export const WebhooksOverviewSchema = z.object({
  /** Null when they could not be listed (offline, not set up): `problem` says why. */
  subscriptions: z.array(SubscriptionViewSchema).nullable(),
  max: z.number().int(),
  listener: ListenerStatusSchema,
  /** The public https URL of the tunnel, from settings. */
  publicUrl: z.string().nullable(),
  /** What `webhooks.subscribe` with no url subscribes: the listener (sandbox) or the public URL. */
  defaultUrl: z.string().nullable(),
  problem: z.string().nullable(),
});
export type WebhooksOverview = z.infer<typeof WebhooksOverviewSchema>;

export const SubscribeInputSchema = z.strictObject({
  /** https, or http to a loopback host when the service itself is on this machine (the sandbox). */
  url: z.string().trim().min(1).max(2048).optional(),
});

export const SetPausedInputSchema = z.strictObject({ id: SubscriptionIdSchema, paused: z.boolean() });

export const SetPausedResultSchema = z.object({
  subscription: SubscriptionViewSchema,
  /** On resume: deliveries the service recorded while paused (never attempted) that were sent again. */
  redelivered: z.number().int(),
});

export const TunnelFailureSchema = z.enum([
  'not-set',
  'listener-down',
  'unreachable',
  'tls',
  'timeout',
  'elsewhere',
  'wrong-path',
]);

/** The outcome of "Check": a request through the public URL, and whether it reached the listener. */
export const TunnelCheckSchema = z.object({
  ok: z.boolean(),
  reason: TunnelFailureSchema.nullable(),
  message: z.string(),
  /** Whether a subscription of Vetted delivers to the public URL; null when that could not be listed. */
  subscribed: z.boolean().nullable(),
});
export type TunnelCheck = z.infer<typeof TunnelCheckSchema>;

export const CatchUpResultSchema = z.object({
  /** Events fetched from `GET /events` that the journal did not have. */
  recorded: z.number().int(),
  /** Events reconciled in this run (fetched ones and earlier ones left unprocessed). */
  processed: z.number().int(),
  /** Vetted's subscriptions that are paused: the reviewer is offered to resume them. */
  pausedSubscriptions: z.array(SubscriptionViewSchema),
  /** Set when the run stopped early or something needs attention. */
  message: z.string().nullable(),
});
export type CatchUpResult = z.infer<typeof CatchUpResultSchema>;

/** A row of the event log. Events carry no personal data. */
export const EventRowSchema = z.object({
  id: z.string(),
  /** As the service sent it: topics Vetted does not know are shown as they are. */
  topic: z.string(),
  customerId: z.string().nullable(),
  /** The customer's name when Vetted knows the customer. */
  customerName: z.string().nullable(),
  resourceId: z.string(),
  /** The event's own time, from the service. */
  created: z.string(),
  receivedAt: z.string(),
  /** False for events fetched with `GET /events` while catching up rather than delivered signed. */
  signatureVerified: z.boolean(),
  /** Deliveries of the same event after the first. */
  duplicatesSeen: z.number().int(),
  /** The customer it names was reconciled (or there was nothing to do for it). */
  processed: z.boolean(),
});
export type EventRow = z.infer<typeof EventRowSchema>;

const EventFilterShape = {
  topic: z.string().min(1).max(200).optional(),
  customerId: z.string().trim().min(1).max(200).optional(),
};

export const EventWindowInputSchema = z.strictObject({
  ...EventFilterShape,
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(500),
});
export type EventWindowInput = z.infer<typeof EventWindowInputSchema>;

export const EventWindowSchema = z.object({
  rows: z.array(EventRowSchema),
  /** Events matching the filter: the scroll height. */
  total: z.number().int(),
  /** Every topic received, for the topic filter. */
  topics: z.array(z.string()),
});
export type EventWindow = z.infer<typeof EventWindowSchema>;

export const EventExportInputSchema = z.strictObject(EventFilterShape);

export const EventExportSchema = z.object({
  /** One `EventRow` as JSON per line, newest first, each line ending in `\n`. */
  jsonl: z.string(),
  count: z.number().int(),
});

export const RejectionRowSchema = z.object({
  at: z.string(),
  remoteAddress: z.string(),
  /** What the tunnel said the sender was (X-Forwarded-For, CF-Connecting-IP): informative, not proven. */
  forwardedFor: z.string().nullable(),
  status: z.number().int(),
  reason: z.string(),
});

export const SecurityLogSchema = z.object({ rows: z.array(RejectionRowSchema), total: z.number().int() });

/** A status change learnt from an event: a native notification under Electron, a toast in a browser. */
export const StatusNoticeSchema = z.object({
  customerId: z.string(),
  title: z.string(),
  body: z.string(),
  status: z.string(),
  /**
   * Main's rule let it reach the desktop (at most one per case a minute, never the case the focused window
   * shows): Electron shows it natively, browser mode as a Web Notification once allowed. Absent or false: a
   * toast in browser mode only.
   */
  desktop: z.boolean().optional(),
});
export type StatusNotice = z.infer<typeof StatusNoticeSchema>;

const noInput = z.undefined();

export const webhookChannels = {
  'webhooks.list': { input: noInput, output: WebhooksOverviewSchema },
  'webhooks.subscribe': { input: SubscribeInputSchema, output: SubscriptionViewSchema },
  'webhooks.setPaused': { input: SetPausedInputSchema, output: SetPausedResultSchema },
  'webhooks.delete': {
    input: z.strictObject({ id: SubscriptionIdSchema }),
    output: z.object({ id: z.string() }),
  },
  /** Listens again on the port in settings (after it was changed there). */
  'webhooks.listen': { input: noInput, output: ListenerStatusSchema },
  'webhooks.checkTunnel': { input: noInput, output: TunnelCheckSchema },
  'webhooks.catchUp': { input: noInput, output: CatchUpResultSchema },
  'webhooks.securityLog': {
    input: z.strictObject({ limit: z.number().int().min(1).max(500) }),
    output: SecurityLogSchema,
  },
  'events.window': { input: EventWindowInputSchema, output: EventWindowSchema },
  'events.export': { input: EventExportInputSchema, output: EventExportSchema },
} as const;

export const webhookEvents = {
  /** An event was recorded, or a duplicate of one counted (same id: the row is replaced). */
  'event.received': EventRowSchema,
  'notification.show': StatusNoticeSchema,
  /** The reviewer clicked a native notification (sent by the Electron glue): open this customer. */
  'notification.clicked': z.object({ customerId: z.string() }),
  'webhooks.listener': ListenerStatusSchema,
  /** A catch-up run finished (at start-up, after reconnecting, or asked for). */
  'webhooks.caughtUp': CatchUpResultSchema,
} as const;

export type WebhookChannel = keyof typeof webhookChannels;
