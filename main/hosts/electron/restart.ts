// Joining or leaving a team takes effect when the desk next starts (it opens its journal once). Electron can
// start itself again; the desk shared with browser mode cannot, so there `app.restart` refuses in words.
import type { App } from 'electron';
import type { Handlers } from '#main/ground/serve.ts';

/** `app.restart` under Electron: relaunch with the same arguments once this instance has quit. */
export function electronRestart(app: Pick<App, 'relaunch' | 'quit'>): Handlers['app.restart'] {
  return () => {
    app.relaunch();
    // After the answer is on its way: quitting closes the window that asked, and will-quit closes the desk.
    setImmediate(() => app.quit());
    return { restarting: true as const };
  };
}
