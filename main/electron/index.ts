import path from 'node:path';
import { app, BrowserWindow, ipcMain, Notification, protocol, safeStorage, session, shell } from 'electron';
import ElectronStore from 'electron-store';
import { startSandbox } from '../../sandbox/index.ts';
import { createDesk, type Desk } from '../desk.ts';
import { createLogger, describeError } from '../log.ts';
import { serve } from '../serve.ts';
import type { ConfLikeOptions } from '../settings.ts';
import { createVaultGate } from '../vault-gate.ts';
import { showNatively } from '../webhooks/index.ts';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './app-protocol.ts';
import { isTrustedIpcSender, pushToWindow, registerIpc } from './ipc.ts';
import { nativeNotifications } from './native-notifications.ts';
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
  app.on('second-instance', focusWindow);
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

function focusWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  handleAppProtocol(protocol, path.join(import.meta.dirname, '../../renderer'));
  const dataDir = app.getPath('userData');
  const isTrusted = isTrustedIpcSender(windowContents);
  // Until the vault is open only its channels answer; then the desk's dispatcher takes over.
  const gate = createVaultGate({
    dir: dataDir,
    safeStorage,
    log,
    onOpen: async (vault, vaultProblem) => {
      desk = await createDesk({
        host: 'electron',
        version: app.getVersion(),
        dataDir,
        log,
        vault,
        vaultProblem,
        createSettingsStore: createElectronStore,
        startSandbox,
      });
      dispatch = desk.dispatcher(isTrusted);
      desk.events.subscribe(pushToWindow(windowContents));
      showNatively(desk.events, nativeNotifications(Notification, focusWindow));
    },
  });
  let dispatch = serve(gate.handlers, {
    host: 'electron',
    isTrustedSender: isTrusted,
    onUnexpected: (channel, error) => log.error('handler failed', { channel, ...describeError(error) }),
  });
  registerIpc(ipcMain, (channel, event, input) => dispatch(channel, event, input));
  // With a keyring the desk exists before the window, as always; without one the window asks first.
  await gate.start();
  mainWindow = new BrowserWindow(
    mainWindowOptions(path.join(import.meta.dirname, '../../preload/index.cjs')),
  );
  showWhenReady(mainWindow);
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  await mainWindow.loadURL(`${APP_ORIGIN}/`);
}

/**
 * electron-store answers a synchronous IPC message that hands any renderer the data path. Ours
 * reads settings through the contract only, so that listener is removed: no unvalidated IPC.
 */
function createElectronStore(options: ConfLikeOptions) {
  const store = new ElectronStore<Record<string, unknown>>(options);
  ipcMain.removeAllListeners(ELECTRON_STORE_IPC_CHANNEL);
  return store;
}

const ELECTRON_STORE_IPC_CHANNEL = 'electron-store-get-data';
