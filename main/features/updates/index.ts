import type { UpdateStatus } from '#contract/updates.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { NO_POLICY } from './policy.ts';
import { createUpdates, type Updates, type UpdatesOptions } from './updates.ts';

export type UpdateChannelName = 'updates.status' | 'updates.check' | 'updates.install' | 'updates.setChannel';

/** How a host makes its updates from the desk's context: the Electron glue passes the real one. */
export type UpdatesFactory = (context: DeskContext) => Updates;

/** Browser mode runs from the developer's checkout: it says how to update instead of offering it. */
export const BROWSER_MODE_HOW_TO_UPDATE =
  'Browser mode runs from your copy of the source: to update, run `git pull` and `npm install` in it, then start it again with `npm start`.';

/** Options shared by every host: the channel kept in settings, status changes pushed to the renderer. */
export function updatesOptions(
  context: DeskContext,
): Pick<UpdatesOptions, 'channel' | 'saveChannel' | 'log' | 'onChange'> {
  return {
    channel: context.settings.get().updateChannel,
    saveChannel: (updateChannel) => void context.settings.update({ updateChannel }),
    log: context.log,
    onChange: (status: UpdateStatus) => context.events.emit('updates.status', status),
  };
}

/** The desk's default where the host passes none: nothing updates itself, and the status says why. */
export function notSelfUpdating(host: 'electron' | 'browser', version: string): UpdatesFactory {
  return (context) =>
    createUpdates({
      ...updatesOptions(context),
      updater: null,
      notOffered:
        host === 'browser' ? BROWSER_MODE_HOW_TO_UPDATE : 'This copy of Vetted does not update itself.',
      policy: NO_POLICY,
      currentVersion: version,
    });
}

export function updatesFeature(updates: Updates): Feature<UpdateChannelName> {
  return {
    handlers: {
      'updates.status': () => updates.status(),
      'updates.check': () => updates.check(),
      'updates.install': () => updates.install(),
      'updates.setChannel': ({ channel }) => updates.setChannel(channel),
    },
    close: () => updates.close(),
  };
}
