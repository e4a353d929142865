import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/** electron-updater's autoUpdater as the tests drive it: its events are emitted by the test. */
export function fakeUpdater() {
  return Object.assign(new EventEmitter(), {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    allowDowngrade: true,
    disableWebInstaller: false,
    channel: null as string | null,
    logger: null as unknown,
    checkForUpdates: vi.fn(async () => null),
    quitAndInstall: vi.fn(),
    setFeedURL: vi.fn(),
  });
}
export type FakeUpdater = ReturnType<typeof fakeUpdater>;
