import { LockSettings } from '#renderer/features/lock/LockSettings.tsx';
import { SettingsScreen as Settings } from '#renderer/features/settings/SettingsScreen.tsx';

/** The settings screen with the desk lock's section, which belongs to the lock feature. */
export function SettingsScreen() {
  return <Settings lock={<LockSettings />} />;
}
