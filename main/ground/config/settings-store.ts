// Non-secret settings in `<dir>/settings.json`, through `conf` in browser mode and `electron-store` (which
// extends conf) under Electron, with the same options. What is read is validated with zod; a corrupt or
// invalid file is kept aside, never wiped, and the app starts on safe defaults with a clear `problem`.
// Secrets never come here: they go to the vault, and unknown keys are refused.
import path from 'node:path';
import Conf from 'conf';
import { z } from 'zod';
import { IdleMinutesSchema, LockKeySchema } from '#contract/lock.ts';
import { allNotifications, NOTIFICATION_KINDS, type NotificationKind } from '#contract/notifications.ts';
import { AgeingTargetsSchema, DEFAULT_AGEING_TARGETS } from '#contract/queue-view.ts';
import { SandboxProfileSchema } from '#contract/settings.ts';
import { UpdateChannelSchema } from '#contract/updates.ts';
import { keepCorruptFileAside } from '../private-files.ts';
import { TeamConnectionSchema } from './team-connection.ts';

export const DEFAULT_WEBHOOK_PORT = 8789;

const LOOPBACK_HOSTNAME = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const SECRET_LOOKING_KEY = /secret|password|passwd|token|key|credential/i;
// conf keeps its own bookkeeping (migrations) under this key; it is not a setting.
const CONF_INTERNAL_KEY = '__internal__';

/** Why `value` is not an acceptable service URL, or undefined when it is. Never includes the value. */
function urlProblem(value: string, allowLoopbackHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a valid URL';
  }
  if (url.username || url.password)
    return 'must not contain a user name or password (secrets go to the vault)';
  if (url.protocol === 'https:') return undefined;
  if (allowLoopbackHttp && url.protocol === 'http:' && LOOPBACK_HOSTNAME.test(url.hostname)) return undefined;
  return allowLoopbackHttp
    ? 'must use https (http only to a loopback host: localhost, 127.x.x.x, [::1])'
    : 'must use https';
}

function serviceUrl(opts: { allowLoopbackHttp: boolean }) {
  return z
    .string()
    .max(2048)
    .superRefine((value, ctx) => {
      const problem = urlProblem(value, opts.allowLoopbackHttp);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

/**
 * The notification switches, one per kind (a kind added later starts on). A file from before them holds one
 * boolean, `notifications`: false turned every notification off, so it turns every kind off.
 */
const NotificationSwitchesSetting = z
  .union([
    z.boolean().transform(allNotifications),
    z.strictObject(
      Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean().default(true)])) as Record<
        NotificationKind,
        z.ZodDefault<z.ZodBoolean>
      >,
    ),
  ])
  .default(allNotifications(true));

// Missing keys take their defaults (a file from an older version is not corrupt); unknown keys are refused.
export const SettingsSchema = z.strictObject({
  serviceMode: z.enum(['sandbox', 'custom']).default('sandbox'),
  baseUrl: serviceUrl({ allowLoopbackHttp: true }).optional(),
  clientId: z.string().min(1).max(200).optional(),
  webhookPort: z.number().int().min(1024).max(65535).default(DEFAULT_WEBHOOK_PORT),
  publicWebhookUrl: serviceUrl({ allowLoopbackHttp: false }).optional(),
  notifications: NotificationSwitchesSetting,
  /** How Vetted asks the service for a token: Automatic finds out (and remembers it per account). */
  tokenEndpoint: z.enum(['automatic', 'real', 'document']).default('automatic'),
  /** The request budget every call shares (start-up reconcile, import, catch-up): per second, and burst. */
  requestRate: z.number().min(0.1).max(1000).default(10),
  requestBurst: z.number().int().min(1).max(1000).default(20),
  /** Extra certificate authorities (PEM) to trust, for a TLS-inspecting proxy. */
  caBundlePath: z.string().min(1).max(4096).optional(),
  ageingTargets: AgeingTargetsSchema.default({ ...DEFAULT_AGEING_TARGETS }),
  overdueNotifications: z.boolean().default(true),
  /** Which releases this desk is offered (an administrator's policy may fix it instead). */
  updateChannel: UpdateChannelSchema.default('stable'),
  /** How the built-in sandbox behaves (absent: `interface`); changing it restarts the sandbox, its data kept. */
  sandboxProfile: SandboxProfileSchema.optional(),
  /** The team this desk joined (Settings → Team): where and as whom, never the password or the team key. */
  team: z.strictObject({ teamId: z.uuid(), connection: TeamConnectionSchema }).optional(),
  /** The idle lock (absent: 15 minutes, Ctrl+Shift+L); its secret's hash is the vault's, never here. */
  lock: z
    .strictObject({ idleMinutes: IdleMinutesSchema, key: LockKeySchema.nullable() })
    .partial()
    .optional(),
});

export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze(SettingsSchema.parse({}));

/** The options given to `conf` or `electron-store`. Both `configName` (conf) and `name` (electron-store,
 * which overrides `configName` with it) are set, so either yields `<cwd>/settings.json`. */
export interface ConfLikeOptions {
  cwd: string;
  configName: string;
  name: string;
  fileExtension: string;
  clearInvalidConfig: false;
  accessPropertiesByDotNotation: false;
  configFileMode: number;
}

/** The part of conf / electron-store used here. */
export interface ConfLike {
  store: Record<string, unknown>;
  readonly path: string;
}

export interface SettingsStore {
  get(): Settings;
  /** Validates the merged result and writes it atomically; throws `SettingsError` naming the bad fields. */
  update(patch: Partial<Settings>): Settings;
  /** Set when the file was corrupt or invalid: what was wrong and where the bad file was kept. */
  readonly problem: string | null;
  readonly path: string;
}

/** Invalid settings. The message lists the fields and why, never their values. */
export class SettingsError extends Error {
  override name = 'SettingsError';
  readonly fields: string[];
  constructor(message: string, fields: string[]) {
    super(message);
    this.fields = fields;
  }
}

export function openSettings(opts: {
  dir: string;
  createStore?: (o: ConfLikeOptions) => ConfLike;
}): SettingsStore {
  const createStore = opts.createStore ?? ((o: ConfLikeOptions) => new Conf<Record<string, unknown>>(o));
  const opened = openStore(createStore, storeOptions(opts.dir));
  const { store } = opened;
  const read = readSettings(store);
  let current = read.settings;
  return {
    path: store.path,
    problem: opened.problem ?? read.problem,
    get: () => ({ ...current }),
    update(patch) {
      const next = validatedUpdate(current, patch);
      store.store = withoutUndefined(next);
      current = next;
      return { ...current };
    },
  };
}

function storeOptions(dir: string): ConfLikeOptions {
  return {
    cwd: dir,
    configName: 'settings',
    name: 'settings',
    fileExtension: 'json',
    // Never let conf wipe a bad file: we keep it aside ourselves and say so.
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    configFileMode: 0o600,
  };
}

// conf throws a SyntaxError on unparsable JSON (with clearInvalidConfig: false): keep the file aside, retry.
function openStore(
  createStore: (o: ConfLikeOptions) => ConfLike,
  options: ConfLikeOptions,
): { store: ConfLike; problem: string | null } {
  try {
    return { store: createStore(options), problem: null };
  } catch (error) {
    if (!(error instanceof Error && error.name === 'SyntaxError')) throw error;
    const file = path.join(options.cwd, `${options.configName}.${options.fileExtension}`);
    const keptAs = keepCorruptFileAside(file);
    return {
      store: createStore(options),
      problem: `The settings file ${file} is not valid JSON${jsonErrorPosition(error)}. It was kept as ${keptAs}; the default settings are in use.`,
    };
  }
}

function readSettings(store: ConfLike): { settings: Settings; problem: string | null } {
  const values = Object.fromEntries(Object.entries(store.store).filter(([key]) => key !== CONF_INTERNAL_KEY));
  const parsed = SettingsSchema.safeParse(values);
  if (parsed.success) return { settings: parsed.data, problem: null };
  const keptAs = keepCorruptFileAside(store.path);
  return {
    settings: { ...DEFAULT_SETTINGS },
    problem: `The settings file ${store.path} has invalid values (${describeIssues(parsed.error).message}). It was kept as ${keptAs}; the default settings are in use.`,
  };
}

function validatedUpdate(current: Settings, patch: Partial<Settings>): Settings {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw new SettingsError('Invalid settings: expected an object of settings to change', []);
  }
  const parsed = SettingsSchema.safeParse({ ...current, ...patch });
  if (parsed.success) return parsed.data;
  const { message, fields } = describeIssues(parsed.error);
  throw new SettingsError(`Invalid settings: ${message}`, fields);
}

// zod's messages name expectations, not the received values, so nothing typed in is echoed.
function describeIssues(error: z.ZodError): { message: string; fields: string[] } {
  const problems: Array<[field: string, why: string]> = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key): [string, string] => [[...issue.path, key].join('.'), unknownKeyReason(key)])
      : [[issue.path.join('.') || 'settings', issue.message]],
  );
  return {
    message: problems.map(([field, why]) => `${field}: ${why}`).join('; '),
    fields: [...new Set(problems.map(([field]) => field))],
  };
}

function unknownKeyReason(key: string): string {
  return SECRET_LOOKING_KEY.test(key)
    ? 'not a setting (secrets are kept in the vault, never in the settings file)'
    : 'not a setting';
}

// Node's JSON.parse messages may quote the file's text; only the position is reused.
function jsonErrorPosition(error: Error): string {
  const position = /line (\d+) column (\d+)/.exec(error.message);
  return position ? ` (line ${position[1]}, column ${position[2]})` : '';
}

function withoutUndefined(settings: Settings): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}
