// After joining or leaving a team the desk must start again: under Electron `app.restart` relaunches it.
import { beforeAll, expect, it, vi } from 'vitest';
import { type FakeElectron, FakeWebContents, sharedFakeElectron } from './fake-electron.ts';

vi.mock('electron', async () => (await import('./fake-electron.ts')).sharedFakeElectron());

let electron: FakeElectron;

beforeAll(async () => {
  electron = sharedFakeElectron();
  await import('../../../main/electron/index.ts');
  await vi.waitFor(() => expect(electron.windows[0]?.loadedUrl).toBeTruthy(), {
    timeout: 15_000,
    interval: 20,
  });
});

it('app.restart from our own window answers, then relaunches and quits (the desk closes on will-quit)', async () => {
  const window = electron.windows[0]!;
  const restart = electron.ipcMain.handlers.get('app.restart')!;

  const stranger = new FakeWebContents();
  expect(await restart({ sender: stranger, senderFrame: stranger.mainFrame }, undefined)).toMatchObject({
    ok: false,
    error: { code: 'Forbidden' },
  });
  expect(electron.app.relaunch.calls).toHaveLength(0);

  const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
  expect(await restart(own, undefined)).toEqual({ ok: true, value: { restarting: true } });
  expect(electron.app.relaunch.calls).toHaveLength(1);
  await vi.waitFor(() => expect(electron.app.quit.calls).toHaveLength(1), { timeout: 5_000, interval: 10 });
});
