import type { BrowserWindow, BrowserWindowConstructorOptions, Session, Shell, WebContents } from 'electron';
import { APP_HOST, APP_SCHEME } from './app-protocol.ts';
import { EXTERNAL_LINK_ALLOW_LIST, isAllowedExternalUrl } from './external-links.ts';

/** Every hardening setting of Electron's security checklist that lives on a window. */
export function secureWebPreferences(
  preloadPath: string,
  { packaged = false }: { packaged?: boolean } = {},
): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload: preloadPath,
    // An installed Vetted has no DevTools: no console in which to read what the page holds.
    devTools: !packaged,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

export function mainWindowOptions(
  preloadPath: string,
  options: { packaged?: boolean; icon?: string | undefined } = {},
): BrowserWindowConstructorOptions {
  return {
    ...(options.icon ? { icon: options.icon } : {}),
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Vetted',
    show: false,
    webPreferences: secureWebPreferences(preloadPath, options),
  };
}

/** Is this URL a page of ours? Only app://vetted/ is. (Node's URL gives custom schemes no origin.) */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Applied to every web contents the app ever creates: no new windows (allowed https links go to
 * the system browser instead), no navigation away from the app, no webviews.
 */
export function hardenWebContents(
  contents: WebContents,
  shell: Pick<Shell, 'openExternal'>,
  serviceOrigins: () => readonly string[] = () => [],
): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url, EXTERNAL_LINK_ALLOW_LIST, serviceOrigins())) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // Electron 45 gives the URL in the event's details (the positional one is deprecated);
  // will-frame-navigate covers every frame, subframes included, where will-navigate sees the main one.
  const stayInApp = (details: { url: string; preventDefault(): void }) => {
    if (!isAppUrl(details.url)) details.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-frame-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The renderer needs no camera, location, notifications prompt or any other permission. */
export function denyAllPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

export function showWhenReady(window: BrowserWindow): void {
  window.once('ready-to-show', () => window.show());
}
