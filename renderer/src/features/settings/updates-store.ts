import { create } from 'zustand';
import type { UpdateChannel, UpdateStatus } from '#contract/updates.ts';
import { api } from '#renderer/api.ts';
import { askMain } from '#renderer/shared/data/ask-main.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

interface UpdatesState {
  status: UpdateStatus | null;
  /** A check or channel change asked for here is on its way to main. */
  busy: boolean;
  /** Main refused what was asked (policy, no update ready): its words. */
  problem: string | null;
  load(): Promise<void>;
  /** The Settings screen is open: main's pushed status keeps it current. */
  watch(): () => void;
  check(): Promise<void>;
  restartNow(): Promise<void>;
  setChannel(channel: UpdateChannel): Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useUpdatesStore = create<UpdatesState>((set) => {
  const ask = async (call: () => Promise<UpdateStatus>) => {
    await askMain(call, {
      busy: (on) => set(on ? { busy: true, problem: null } : { busy: false }),
      answered: (status) => set({ status }),
      refused: (error) => set({ problem: messageOf(error) }),
    });
  };
  return {
    status: null,
    busy: false,
    problem: null,
    async load() {
      try {
        set({ status: await api.updates.status() });
      } catch (error) {
        set({ problem: messageOf(error) });
      }
    },
    watch: sharedWatch(() => api.on('updates.status', (status) => set({ status }))),
    check: () => ask(() => api.updates.check()),
    restartNow: () => ask(() => api.updates.install()),
    setChannel: (channel) => ask(() => api.updates.setChannel({ channel })),
  };
});

/** One line saying where updates stand, for a status region. */
export function describeUpdates(status: UpdateStatus): string {
  if (!status.offered) return status.notOffered ?? 'Updates are not offered here.';
  const update = status.availableVersion ? `Vetted ${status.availableVersion}` : 'the update';
  switch (status.phase) {
    case 'checking':
      return 'Checking for updates…';
    case 'downloading':
      return status.progress
        ? `Downloading ${update}: ${Math.round(status.progress.percent)}%`
        : `Downloading ${update}…`;
    case 'downloaded':
      return `${update[0]?.toUpperCase()}${update.slice(1)} is ready. It installs when you quit, or restart now.`;
    case 'up-to-date':
      return `Vetted ${status.currentVersion} is up to date.`;
    case 'error':
      return status.error ?? 'The update check failed.';
    default:
      return `Vetted ${status.currentVersion}. Updates are checked at start and every 6 hours.`;
  }
}
