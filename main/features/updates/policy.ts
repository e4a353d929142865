import path from 'node:path';
import { z } from 'zod';
import { type UpdateChannel, UpdateChannelSchema } from '#contract/updates.ts';

/**
 * What an administrator decides about updates on a managed machine, read once at start: a policy
 * file (every OS) and, on Windows, the registry (where Group Policy and Intune write). The registry
 * wins over the file; either wins over the reviewer. Plain module: the file and registry readers
 * are injected, so tests need neither.
 */
export interface UpdatePolicy {
  updatesDisabled: boolean;
  /** A mirrored https feed to use instead of the one the build was published with. */
  feedUrl: string | null;
  channel: UpdateChannel | null;
  /** Which policy decided, in words for the Settings screen; null when none did. */
  source: string | null;
}

export const NO_POLICY: UpdatePolicy = Object.freeze({
  updatesDisabled: false,
  feedUrl: null,
  channel: null,
  source: null,
});

const httpsUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:', 'must be an https URL');

/** The policy file: `{"disableUpdates": true}`, `{"updateFeedUrl": "https://…", "updateChannel": "stable"}`. */
export const PolicyFileSchema = z.object({
  disableUpdates: z.boolean().optional(),
  updateFeedUrl: httpsUrl.optional(),
  updateChannel: UpdateChannelSchema.optional(),
});

/** The machine-wide policy file for each OS; docs/RELEASING.md lists the same paths. */
export function policyFilePath(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'win32')
    return path.win32.join(env.ProgramData ?? 'C:\\ProgramData', 'Vetted', 'policy.json');
  if (platform === 'darwin') return '/Library/Application Support/Vetted/policy.json';
  return '/etc/vetted/policy.json';
}

export const REGISTRY_KEY = 'HKLM\\SOFTWARE\\Policies\\Vetted';

export interface PolicySources {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The file's text, or null when it does not exist. Other failures throw. */
  readFile(file: string): string | null;
  /** `reg query` output for REGISTRY_KEY, or null when the key does not exist (Windows only). */
  queryRegistry?(): string | null;
}

export function readUpdatePolicy(sources: PolicySources): UpdatePolicy {
  const file = policyFilePath(sources.platform, sources.env);
  let policy = fromFile(file, sources);
  if (sources.platform === 'win32' && sources.queryRegistry) {
    const values = parseRegQuery(sources.queryRegistry() ?? '');
    if (Object.keys(values).length > 0) policy = fromRegistry(values, policy);
  }
  return policy;
}

function fromFile(file: string, sources: PolicySources): UpdatePolicy {
  let text: string | null;
  try {
    text = sources.readFile(file);
  } catch (error) {
    return unreadable(file, error instanceof Error ? error.message : String(error));
  }
  if (text === null) return NO_POLICY;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return unreadable(file, 'it is not valid JSON');
  }
  const parsed = PolicyFileSchema.safeParse(json);
  if (!parsed.success) {
    return unreadable(file, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  return {
    updatesDisabled: parsed.data.disableUpdates ?? false,
    feedUrl: parsed.data.updateFeedUrl ?? null,
    channel: parsed.data.updateChannel ?? null,
    source: `the policy file ${file}`,
  };
}

/**
 * A policy file that exists but cannot be read was meant to say something: on a managed machine
 * the safe reading is "no updates" until an administrator fixes it, and the screen says why.
 */
function unreadable(file: string, why: string): UpdatePolicy {
  return {
    updatesDisabled: true,
    feedUrl: null,
    channel: null,
    source: `the policy file ${file}, which could not be read (${why}): updates stay off until it is fixed`,
  };
}

function fromRegistry(values: Record<string, string>, base: UpdatePolicy): UpdatePolicy {
  const disable = values.DisableUpdates;
  const feed = values.UpdateFeedUrl;
  const channel = UpdateChannelSchema.safeParse(values.UpdateChannel?.toLowerCase());
  return {
    updatesDisabled: disable === undefined ? base.updatesDisabled : Number(disable) !== 0,
    feedUrl: feed !== undefined && httpsUrl.safeParse(feed).success ? feed : base.feedUrl,
    channel: channel.success ? channel.data : base.channel,
    source: `the Windows registry (${REGISTRY_KEY})`,
  };
}

/**
 * `reg query KEY` prints `    Name    REG_TYPE    value` lines; REG_DWORD values are hex (0x1).
 * Parsed as text so no native module is needed for the registry.
 */
export function parseRegQuery(output: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of output.split(/\r?\n/)) {
    const match = /^\s+(\S+)\s+(REG_[A-Z_]+)\s+(.*?)\s*$/.exec(line);
    if (!match) continue;
    const [, name, type, raw] = match as unknown as [string, string, string, string];
    values[name] = type === 'REG_DWORD' || type === 'REG_QWORD' ? String(Number.parseInt(raw, 16)) : raw;
  }
  return values;
}
