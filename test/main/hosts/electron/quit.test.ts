import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { menuTemplate } from '#main/hosts/electron/menu.ts';
import { sharedFakeElectron } from './fake-electron.ts';

vi.mock('electron', async () => (await import('./fake-electron.ts')).sharedFakeElectron());

it('quit waits for the desk to close (journal checkpointed), then quits; a second will-quit passes', async () => {
  const electron = sharedFakeElectron();
  await import('#main/hosts/electron/index.ts');
  await vi.waitFor(() => expect(electron.windows[0]?.loadedUrl).toBeTruthy(), {
    timeout: 15_000,
    interval: 20,
  });
  const journal = path.join(electron.app.getPath(), 'journal.db');
  expect(existsSync(`${journal}-wal`)).toBe(true); // open: its write-ahead log is there

  let prevented = 0;
  electron.app.emit('will-quit', { preventDefault: () => prevented++ });
  expect(prevented).toBe(1); // held until the desk is closed
  expect(electron.app.quit.calls).toHaveLength(0);
  await vi.waitFor(() => expect(electron.app.quit.calls).toHaveLength(1), { timeout: 15_000, interval: 20 });
  // Closed cleanly: SQLite folds the write-ahead log into the file and removes it on the last close.
  expect(existsSync(`${journal}-wal`)).toBe(false);

  electron.app.emit('will-quit', { preventDefault: () => prevented++ });
  expect(prevented).toBe(1);
  expect(electron.app.exit.calls).toEqual([]);
});

it('the application menu is minimal: no View menu (its DevTools), Help checks for updates', () => {
  const status = { offered: true } as Parameters<typeof menuTemplate>[0]['updates'];
  for (const platform of ['darwin', 'win32', 'linux'] as const) {
    const template = menuTemplate({ platform, updates: status, checkForUpdates: () => {} });
    const roles = template.map((item) => item.role);
    expect(roles).not.toContain('viewMenu');
    expect(roles).toContain('editMenu');
    expect(roles.includes('appMenu')).toBe(platform === 'darwin');
    const help = template.find((item) => item.role === 'help');
    const helpItems = (help?.submenu ?? []) as { label?: string }[];
    expect(helpItems.map((item) => item.label)).toContain('Check for Updates…');
  }
});
