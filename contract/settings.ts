import { z } from 'zod';
import { NotificationSwitchesPatchSchema, NotificationSwitchesSchema } from './notifications.ts';
import { AgeingTargetsSchema } from './queue-view.ts';

export const ServiceModeSchema = z.enum(['sandbox', 'custom']);
export type ServiceMode = z.infer<typeof ServiceModeSchema>;

/** The built-in sandbox's behaviour: the interface document, or today's real service (real-service.md). */
export const SandboxProfileSchema = z.enum(['interface', 'real']);
export type SandboxProfile = z.infer<typeof SandboxProfileSchema>;

/** How the vault protects secrets here; the Settings screen says it in words. */
export const SecretProtectionSchema = z.enum([
  'os-keychain',
  'file-permissions',
  'memory-only',
  'passphrase',
]);

/** Settings as the renderer sees them: never a secret, only whether one is stored. */
export const TokenEndpointSchema = z.enum(['automatic', 'real', 'document']);
export type TokenEndpoint = z.infer<typeof TokenEndpointSchema>;

export const SettingsViewSchema = z.object({
  serviceMode: ServiceModeSchema,
  baseUrl: z.string().optional(),
  clientId: z.string().optional(),
  hasClientSecret: z.boolean(),
  webhookPort: z.number().int(),
  publicWebhookUrl: z.string().optional(),
  /** Which moments become a desktop notification (Settings → Notifications). */
  notifications: NotificationSwitchesSchema,
  /** Absent means `interface`. */
  sandboxProfile: SandboxProfileSchema.optional(),
  tokenEndpoint: TokenEndpointSchema,
  requestRate: z.number(),
  requestBurst: z.number().int(),
  caBundlePath: z.string().optional(),
  /** Hours a case may wait per section before it is overdue. */
  ageingTargets: AgeingTargetsSchema,
  /** A notification when a case goes overdue. */
  overdueNotifications: z.boolean(),
  secretProtection: SecretProtectionSchema,
  /** A corrupt settings file found at start-up: what was wrong and where it was kept. */
  problem: z.string().nullable(),
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;

const clearable = (schema: z.ZodString) => schema.nullable().optional();

/** A change to the settings. `null` clears a field; the client secret is write-only. */
export const SettingsPatchSchema = z.strictObject({
  serviceMode: ServiceModeSchema.optional(),
  baseUrl: clearable(z.string().trim().min(1).max(2048)),
  clientId: clearable(z.string().trim().min(1).max(200)),
  clientSecret: clearable(z.string().min(1).max(1024)),
  webhookPort: z.number().int().min(1024).max(65535).optional(),
  publicWebhookUrl: clearable(z.string().trim().min(1).max(2048)),
  notifications: NotificationSwitchesPatchSchema.optional(),
  sandboxProfile: SandboxProfileSchema.optional(),
  tokenEndpoint: TokenEndpointSchema.optional(),
  requestRate: z.number().min(0.1).max(1000).optional(),
  requestBurst: z.number().int().min(1).max(1000).optional(),
  caBundlePath: clearable(z.string().trim().min(1).max(4096)),
  ageingTargets: AgeingTargetsSchema.optional(),
  overdueNotifications: z.boolean().optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export const ConnectionStateSchema = z.enum([
  'connecting',
  'online',
  'offline',
  'auth-failed',
  'not-configured',
  'rate-limited',
]);
export type ConnectionState = z.infer<typeof ConnectionStateSchema>;

/** What the status bar shows: which service, whether it answers, when it last did. */
export const ServiceStatusSchema = z.object({
  mode: ServiceModeSchema,
  baseUrl: z.string().nullable(),
  state: ConnectionStateSchema,
  lastSuccessAt: z.iso.datetime().nullable(),
  detail: z.string().nullable(),
  /** While rate limited: when Vetted next sends the service anything. */
  retryAt: z.iso.datetime().nullable().optional(),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

export const ConnectionFailureSchema = z.enum([
  'not-configured',
  'bad-credentials',
  'unreachable',
  'tls',
  'timeout',
  'media-type',
  'rate-limited',
  'server',
  'unexpected',
]);

/** The outcome of "Test connection", in words a reviewer can act on. */
export const ConnectionTestSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), scope: z.array(z.string()), expiresAt: z.iso.datetime() }),
  z.object({ ok: z.literal(false), reason: ConnectionFailureSchema, message: z.string() }),
]);
export type ConnectionTest = z.infer<typeof ConnectionTestSchema>;
