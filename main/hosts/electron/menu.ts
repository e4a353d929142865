import type { MenuItemConstructorOptions } from 'electron';
import type { UpdateStatus } from '#contract/updates.ts';

/**
 * The application menu, as a template (tested without Electron): the platform's standard menus,
 * and Help → "Check for Updates…", disabled with the reason where updates are not offered.
 */
export function menuTemplate(opts: {
  platform: NodeJS.Platform;
  updates: UpdateStatus;
  checkForUpdates(): void;
}): MenuItemConstructorOptions[] {
  const mac = opts.platform === 'darwin';
  const check: MenuItemConstructorOptions = {
    id: 'check-for-updates',
    label: 'Check for Updates…',
    enabled: opts.updates.offered,
    click: () => opts.checkForUpdates(),
  };
  const help: MenuItemConstructorOptions[] = [check];
  if (!opts.updates.offered && opts.updates.managedBy) {
    help.push({ label: 'Updates are managed by your administrator', enabled: false });
  }
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'windowMenu' },
    { role: 'help', submenu: help },
  ];
}

/** The answer to a check started from the menu, for a message box. */
export function checkOutcome(status: UpdateStatus): {
  type: 'info' | 'error';
  message: string;
  detail: string;
} {
  if (!status.offered)
    return { type: 'info', message: 'Updates are not offered here', detail: status.notOffered ?? '' };
  switch (status.phase) {
    case 'error':
      return { type: 'error', message: 'The update check failed', detail: status.error ?? '' };
    case 'downloading':
      return {
        type: 'info',
        message: `Vetted ${status.availableVersion ?? ''} is downloading`,
        detail: 'It installs when you quit Vetted, or choose Restart now in Settings when it is ready.',
      };
    case 'downloaded':
      return {
        type: 'info',
        message: `Vetted ${status.availableVersion ?? ''} is ready`,
        detail: 'It installs when you quit Vetted, or choose Restart now in Settings.',
      };
    default:
      return {
        type: 'info',
        message: 'Vetted is up to date',
        detail: `You have version ${status.currentVersion} (${status.channel} channel).`,
      };
  }
}
