import path from 'node:path';
import { app, BrowserWindow, ipcMain, protocol, session, shell } from 'electron';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './app-protocol.ts';
import { createDesk, type Desk } from './desk.ts';
import { isTrustedIpcSender, pushToWindow, registerIpc } from './ipc.ts';
import { createLogger } from './log.ts';
import { denyAllPermissions, hardenWebContents, mainWindowOptions, showWhenReady } from './window.ts';

/**
 * Electron glue only: app lifecycle, the window, the protocol and IPC. Everything it wires up
 * is a plain module tested without Electron.
 */

const log = createLogger();
let mainWindow: BrowserWindow | null = null;
let desk: Desk | null = null;
const windowContents = () => (mainWindow && !mainWindow.isDestroyed() ? mainWindow.webContents : null);

app.enableSandbox();
registerAppScheme(protocol);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, shell));
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => {
    void desk?.close();
  });
  app.whenReady().then(start, (error: unknown) => {
    log.error('start-up failed', { error: String(error) });
    app.exit(1);
  });
}

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  handleAppProtocol(protocol, path.join(import.meta.dirname, '../renderer'));
  desk = await createDesk({
    host: 'electron',
    version: app.getVersion(),
    dataDir: app.getPath('userData'),
    log,
  });
  registerIpc(ipcMain, desk.dispatcher(isTrustedIpcSender(windowContents)));
  desk.events.subscribe(pushToWindow(windowContents));
  mainWindow = new BrowserWindow(mainWindowOptions(path.join(import.meta.dirname, '../preload/index.cjs')));
  showWhenReady(mainWindow);
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  await mainWindow.loadURL(`${APP_ORIGIN}/`);
}
