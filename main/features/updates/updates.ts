import { DeskError } from '#contract/errors.ts';
import type { UpdateChannel, UpdateStatus } from '#contract/updates.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import type { UpdatePolicy } from './policy.ts';

/**
 * The update state machine, with electron-updater's `autoUpdater` injected (the part of it used
 * here): checks at start and every 6 hours, downloads in the background with progress, installs
 * on the next quit (the updater's own autoInstallOnAppQuit) or on "Restart now". Verifying what
 * was downloaded is the updater's job (sha512 from the feed; the code signature on Windows and
 * macOS); a refusal arrives as an `error` event and is shown in words.
 */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  disableWebInstaller: boolean;
  channel: string | null;
  on(event: string, listener: (...args: never[]) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
}

export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

export interface UpdatesOptions {
  /** null where this host does not update itself; `notOffered` then says why and what to do. */
  updater: UpdaterLike | null;
  notOffered?: string;
  policy: UpdatePolicy;
  /** The reviewer's choice, kept in the settings file. */
  channel: UpdateChannel;
  saveChannel(channel: UpdateChannel): void;
  currentVersion: string;
  log: Logger;
  onChange(status: UpdateStatus): void;
  intervalMs?: number;
}

export interface Updates {
  status(): UpdateStatus;
  /** Checks now and every 6 hours; never when policy turned updates off. */
  start(): void;
  check(): Promise<UpdateStatus>;
  install(): UpdateStatus;
  setChannel(channel: UpdateChannel): Promise<UpdateStatus>;
  close(): void;
}

/** electron-builder names the stable channel's feed files latest*.yml. */
const FEED_CHANNEL: Record<UpdateChannel, string> = { stable: 'latest', beta: 'beta' };

type UpdatePhase = Pick<UpdateStatus, 'phase' | 'availableVersion' | 'progress' | 'lastCheckedAt' | 'error'>;

/** The machine's state: what it was built with, the channel chosen, the check timer and where it stands. */
interface UpdatesState {
  options: UpdatesOptions;
  /** The updater, unless updates are not offered here (`notOffered` says why). */
  active: UpdaterLike | null;
  notOffered: string | null;
  channel: UpdateChannel;
  timer: ReturnType<typeof setInterval> | null;
  current: UpdatePhase;
}

function notOfferedReason({ updater, policy, notOffered }: UpdatesOptions): string | null {
  if (!updater) return notOffered ?? 'This copy of Vetted does not update itself.';
  if (policy.updatesDisabled) {
    return `Updates are turned off by ${policy.source}. Your IT department installs new versions.`;
  }
  return null;
}

function status({ options, active, notOffered, channel, current }: UpdatesState): UpdateStatus {
  const { policy } = options;
  return {
    offered: active !== null,
    notOffered,
    managedBy: policy.source,
    channel,
    channelLocked: policy.channel !== null || policy.updatesDisabled,
    feedUrl: policy.feedUrl,
    currentVersion: options.currentVersion,
    ...current,
  };
}

function change(state: UpdatesState, next: Partial<UpdatePhase>): void {
  state.current = { ...state.current, ...next };
  state.options.onChange(status(state));
}

function fail(state: UpdatesState, error: unknown): void {
  state.options.log.warn('update failed', describeError(error));
  change(state, { phase: 'error', progress: null, error: describeUpdateError(error) });
}

/** Sets the updater up for this channel and feed, and follows its events into the state. */
function configure(state: UpdatesState, u: UpdaterLike): void {
  u.autoDownload = true;
  u.autoInstallOnAppQuit = true;
  u.disableWebInstaller = true;
  u.channel = FEED_CHANNEL[state.channel];
  // Setting a channel turns allowDowngrade on in electron-updater; a reviewer leaving beta keeps
  // the newer build until stable catches up rather than going back to an older one.
  u.allowDowngrade = false;
  const { feedUrl } = state.options.policy;
  if (feedUrl) u.setFeedURL({ provider: 'generic', url: feedUrl });
  u.on('checking-for-update', () => change(state, { phase: 'checking', error: null }));
  u.on('update-not-available', () =>
    change(state, { phase: 'up-to-date', availableVersion: null, progress: null }),
  );
  u.on('update-available', (info: { version: string }) =>
    change(state, { phase: 'downloading', availableVersion: info.version, progress: null }),
  );
  u.on('download-progress', (p: { percent: number; transferred: number; total: number }) =>
    change(state, {
      phase: 'downloading',
      progress: {
        percent: Math.min(100, Math.max(0, p.percent)),
        transferred: p.transferred,
        total: p.total,
      },
    }),
  );
  u.on('update-downloaded', (info: { version: string }) =>
    change(state, { phase: 'downloaded', availableVersion: info.version, progress: null }),
  );
  u.on('error', (error: unknown) => fail(state, error));
}

function requireActive({ active, notOffered }: UpdatesState): UpdaterLike {
  if (!active) throw new DeskError('UpdatesNotOffered', notOffered ?? 'Updates are not offered here.');
  return active;
}

async function check(state: UpdatesState): Promise<UpdateStatus> {
  const u = requireActive(state);
  const { phase } = state.current;
  // A downloaded update waits for the restart; a running download or check is not started twice.
  if (phase === 'downloaded' || phase === 'downloading' || phase === 'checking') return status(state);
  change(state, { lastCheckedAt: new Date().toISOString() });
  try {
    await u.checkForUpdates();
  } catch (error) {
    // The updater emits `error` too; either way the state says what happened, once.
    if (state.current.phase !== 'error') fail(state, error);
  }
  return status(state);
}

function start(state: UpdatesState): void {
  if (!state.active) {
    state.options.log.info('updates not offered', { reason: state.notOffered ?? '' });
    return;
  }
  void check(state);
  state.timer = setInterval(() => void check(state), state.options.intervalMs ?? CHECK_INTERVAL_MS);
  state.timer.unref?.();
}

function install(state: UpdatesState): UpdateStatus {
  const u = requireActive(state);
  if (state.current.phase !== 'downloaded') {
    throw new DeskError('NoUpdateReady', 'No update has been downloaded yet.');
  }
  // After the answer goes back: quitAndInstall closes the window that asked.
  setTimeout(() => u.quitAndInstall(false, true), 0);
  return status(state);
}

async function setChannel(state: UpdatesState, next: UpdateChannel): Promise<UpdateStatus> {
  const { policy } = state.options;
  if (policy.channel !== null || policy.updatesDisabled) {
    throw new DeskError('ManagedByPolicy', `The update channel is set by ${policy.source}.`);
  }
  state.channel = next;
  state.options.saveChannel(next);
  const { active } = state;
  if (!active) return status(state);
  active.channel = FEED_CHANNEL[next];
  active.allowDowngrade = false;
  return state.current.phase === 'downloaded' ? status(state) : check(state);
}

export function createUpdates(options: UpdatesOptions): Updates {
  const notOffered = notOfferedReason(options);
  const state: UpdatesState = {
    options,
    active: notOffered === null ? options.updater : null,
    notOffered,
    channel: options.policy.channel ?? options.channel,
    timer: null,
    current: { phase: 'idle', availableVersion: null, progress: null, lastCheckedAt: null, error: null },
  };
  if (state.active) configure(state, state.active);
  return {
    status: () => status(state),
    start: () => start(state),
    check: () => check(state),
    install: () => install(state),
    setChannel: (next) => setChannel(state, next),
    close() {
      if (state.timer) clearInterval(state.timer);
      state.timer = null;
    },
  };
}

/** What the reviewer reads when an update fails; the whole error goes to the log. */
export function describeUpdateError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE' || /code signature|not signed/i.test(message)) {
    return 'The update was refused: it is not signed by Vetted’s publisher. Nothing was installed; tell your IT or security contact.';
  }
  if (code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/i.test(message)) {
    return 'The update was refused: the download does not match the checksum the update feed published. Nothing was installed.';
  }
  if (/ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|net::ERR_/.test(message)) {
    return 'The update server could not be reached. Vetted tries again in 6 hours, or check now when you are back online.';
  }
  if (/HttpError: 404|status 404|404 Not Found/i.test(message)) {
    return 'The update feed has no release for this channel and system. Tell your IT contact if this persists.';
  }
  return 'The update check failed. Details are in the log.';
}
