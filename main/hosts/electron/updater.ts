import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { App } from 'electron';
import { type UpdatesFactory, updatesOptions } from '#main/features/updates/index.ts';
import { REGISTRY_KEY, readUpdatePolicy, type UpdatePolicy } from '#main/features/updates/policy.ts';
import { createUpdates, type UpdaterLike, type Updates } from '#main/features/updates/updates.ts';
import type { Logger } from '#main/ground/log/logger.ts';

/**
 * Electron glue for updates: reads the administrator's policy once at start, loads
 * electron-updater's autoUpdater in installed builds only, and hands both to the plain state
 * machine (main/features/updates/updates.ts).
 */

export const DEVELOPMENT_BUILD =
  'This is a development build, not an installed one: it does not update itself. Installed builds check at start and every 6 hours.';

export function readPolicyAtStart(log: Logger): UpdatePolicy {
  const policy = readUpdatePolicy({
    platform: process.platform,
    env: process.env,
    readFile: (file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    queryRegistry,
  });
  if (policy.source)
    log.info('update policy', { source: policy.source, updatesDisabled: policy.updatesDisabled });
  return policy;
}

/** `reg query` exits 1 when the key does not exist: no policy there. */
function queryRegistry(): string | null {
  try {
    return execFileSync('reg', ['query', REGISTRY_KEY], {
      encoding: 'utf8',
      windowsHide: true,
      timeout: 10_000,
    });
  } catch {
    return null;
  }
}

/**
 * electron-updater only in an installed build (it does nothing unpackaged, and loading it needs the
 * real Electron); its log lines go to ours.
 */
export async function loadUpdater(app: Pick<App, 'isPackaged'>, log: Logger): Promise<UpdaterLike | null> {
  if (!app.isPackaged) return null;
  const { default: electronUpdater } = await import('electron-updater');
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = {
    info: (message?: unknown) => log.info('updater', { message: String(message) }),
    warn: (message?: unknown) => log.warn('updater', { message: String(message) }),
    error: (message?: unknown) => log.error('updater', { message: String(message) }),
  };
  // AppUpdater's typed `on` overloads are narrower than UpdaterLike's single signature.
  return autoUpdater as unknown as UpdaterLike;
}

export interface ElectronUpdates {
  factory: UpdatesFactory;
  /** The state machine, once the desk has built it. */
  updates(): Updates | null;
}

export function electronUpdates(opts: {
  updater: UpdaterLike | null;
  policy: UpdatePolicy;
  version: string;
}): ElectronUpdates {
  let built: Updates | null = null;
  return {
    factory: (context) => {
      built = createUpdates({
        ...updatesOptions(context),
        updater: opts.updater,
        notOffered: DEVELOPMENT_BUILD,
        policy: opts.policy,
        currentVersion: opts.version,
      });
      return built;
    },
    updates: () => built,
  };
}
