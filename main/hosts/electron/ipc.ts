import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { channelNames, type EventName, PUSHED_EVENT_CHANNEL } from '#contract/channels.ts';
import type { Dispatch } from '#main/ground/serve.ts';
import { isAppUrl } from './window.ts';

/**
 * Trusted: the top frame of our own window, showing our own page. A sub-frame, another window,
 * or our window after it somehow left app:// is refused (as Electron Fiddle and VS Code do).
 */
export function isTrustedIpcSender(getWindowContents: () => WebContents | null) {
  return (event: IpcMainInvokeEvent): boolean => {
    const contents = getWindowContents();
    const frame = event.senderFrame;
    if (!contents || !frame || event.sender !== contents) return false;
    if (frame !== contents.mainFrame) return false;
    return isAppUrl(frame.url);
  };
}

/** One ipcMain.handle per contract channel; no catch-all channel exists. */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle'>, dispatch: Dispatch<IpcMainInvokeEvent>): void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, (event, input: unknown) => dispatch(channel, event, input));
  }
}

export function pushToWindow(getWindowContents: () => WebContents | null) {
  return (event: EventName, payload: unknown) => {
    const contents = getWindowContents();
    if (contents && !contents.isDestroyed()) contents.send(PUSHED_EVENT_CHANNEL, event, payload);
  };
}
