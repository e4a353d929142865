import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '#contract/updates.ts';
import type { fakeUpdater } from '#test/main/features/updates/fake-updater.ts';
import { type FakeElectron, sharedFakeElectron } from './fake-electron.ts';

/**
 * The update flow through main/hosts/electron/index.ts, as in an installed build: Electron mocked,
 * electron-updater's autoUpdater mocked, its events emitted here.
 */

const autoUpdater = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeUpdater> | null }));
vi.mock('electron', async () => (await import('./fake-electron.ts')).sharedFakeElectron());
vi.mock('electron-updater', async () => {
  const { fakeUpdater } = await import('#test/main/features/updates/fake-updater.ts');
  autoUpdater.current = fakeUpdater();
  return { default: { autoUpdater: autoUpdater.current } };
});

let electron: FakeElectron;
const updater = () => autoUpdater.current!;

beforeAll(async () => {
  electron = sharedFakeElectron();
  electron.app.isPackaged = true;
  await import('#main/hosts/electron/index.ts');
  await vi.waitFor(() => expect(updater()?.checkForUpdates).toHaveBeenCalled(), {
    timeout: 15_000,
    interval: 20,
  });
});

async function invoke(channel: string, input?: unknown) {
  const window = electron.windows[0]!;
  const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
  return (await electron.ipcMain.handlers.get(channel)!(own, input)) as { ok: boolean; value: UpdateStatus };
}

const pushedStatuses = () =>
  electron.windows[0]!.webContents.sent.filter(([, event]) => event === 'updates.status').map(
    ([, , payload]) => payload as UpdateStatus,
  );

describe('updates in an installed build (electron-updater mocked)', () => {
  it('configures the updater to download in the background and install on the next quit', () => {
    expect(updater()).toMatchObject({
      autoDownload: true,
      autoInstallOnAppQuit: true,
      allowDowngrade: false,
      disableWebInstaller: true,
      channel: 'latest',
    });
    expect(updater().logger).not.toBeNull();
  });

  it('puts "Check for Updates…" in the Help menu', async () => {
    const menu = electron.Menu.applied as {
      template: Array<{
        role?: string;
        submenu?: Array<{ id?: string; enabled?: boolean; click?: () => void }>;
      }>;
    };
    const item = menu.template
      .find((m) => m.role === 'help')
      ?.submenu?.find((i) => i.id === 'check-for-updates');
    expect(item?.enabled).toBe(true);
    const calls = updater().checkForUpdates.mock.calls.length;
    item?.click?.();
    await vi.waitFor(() => expect(electron.dialog.showMessageBox.calls.length).toBe(1), { timeout: 15_000 });
    expect(updater().checkForUpdates.mock.calls.length).toBe(calls + 1);
  });

  it('available → downloading → downloaded is pushed to the window, and "Restart now" installs', async () => {
    updater().emit('update-available', { version: '9.9.9' });
    updater().emit('download-progress', { percent: 50, transferred: 5, total: 10, bytesPerSecond: 1 });
    updater().emit('update-downloaded', { version: '9.9.9' });
    expect(pushedStatuses().map((s) => s.phase)).toEqual(
      expect.arrayContaining(['downloading', 'downloaded']),
    );
    expect(pushedStatuses().find((s) => s.progress)?.progress?.percent).toBe(50);
    expect((await invoke('updates.status')).value).toMatchObject({
      offered: true,
      phase: 'downloaded',
      availableVersion: '9.9.9',
    });

    expect((await invoke('updates.install')).ok).toBe(true);
    await vi.waitFor(() => expect(updater().quitAndInstall).toHaveBeenCalledWith(false, true), {
      timeout: 15_000,
    });
  });

  it('shows an error, and a refused signature says so', async () => {
    updater().emit(
      'error',
      Object.assign(new Error('not signed by the application owner'), {
        code: 'ERR_UPDATER_INVALID_SIGNATURE',
      }),
    );
    const status = (await invoke('updates.status')).value;
    expect(status.phase).toBe('error');
    expect(status.error).toMatch(/refused/);
    expect(pushedStatuses().at(-1)?.error).toBe(status.error);
  });
});
