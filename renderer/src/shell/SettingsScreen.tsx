import { LockSettings } from '#renderer/features/lock/LockSettings.tsx';
import { SettingsScreen as Settings } from '#renderer/features/settings/SettingsScreen.tsx';
import { MyWork } from '#renderer/features/trends/MyWork.tsx';

/** The settings screen with the desk lock's section and My work, which belong to their own features. */
export function SettingsScreen() {
  return <Settings lock={<LockSettings />} myWork={<MyWork />} />;
}
