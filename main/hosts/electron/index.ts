import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import ElectronStore from 'electron-store';
import type { UpdateStatus } from '#contract/updates.ts';
import { createDesk, type Desk } from '#main/compose/desk.ts';
import { showNatively } from '#main/features/webhooks/index.ts';
import type { ConfLikeOptions } from '#main/ground/config/settings-store.ts';
import { type LogFile, openLogFile } from '#main/ground/log/log-file.ts';
import { createLogger, describeError } from '#main/ground/log/logger.ts';
import { guardProcess } from '#main/ground/log/process-guard.ts';
import { serve } from '#main/ground/serve.ts';
import { createVaultGate } from '#main/ground/vault/vault-gate.ts';
import { startSandbox } from '#sandbox/index.ts';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './app-protocol.ts';
import { caseInArgv, handleCaseLinks } from './case-links.ts';
import { isTrustedIpcSender, pushToWindow, registerIpc } from './ipc.ts';
import { checkOutcome, menuTemplate } from './menu.ts';
import { nativeNotifications } from './native-notifications.ts';
import { lockWithTheOs } from './os-lock.ts';
import { electronRestart } from './restart.ts';
import { electronUpdates, loadUpdater, readPolicyAtStart } from './updater.ts';
import { denyAllPermissions, hardenWebContents, mainWindowOptions, showWhenReady } from './window.ts';

/**
 * Electron glue only: app lifecycle, the window, the protocol and IPC. Everything it wires up
 * is a plain module tested without Electron.
 */

/**
 * Every line goes to the log file in the data directory (opened at the first line: the data directory
 * is Electron's to say); the terminal gets errors, and everything with `--verbose`.
 */
const verbose = process.argv.includes('--verbose');
let logFile: LogFile | null | undefined;
const log = createLogger((line) => {
  if (verbose || line.includes('"level":"error"')) process.stderr.write(`${line}\n`);
  if (logFile === undefined) {
    try {
      logFile = openLogFile(app.getPath('userData'));
    } catch {
      logFile = null;
    }
  }
  logFile?.write(line);
});
// The last net (log/process-guard.ts): a fault nothing caught is logged and counted, and the desk goes on.
guardProcess({ log });
const APP_USER_MODEL_ID = 'app.vetted.desktop';
let mainWindow: BrowserWindow | null = null;
let desk: Desk | null = null;
/** A case link that arrived before the window could show it (Vetted started by one, or still locked). */
let pendingCase: string | null = caseInArgv(process.argv);
const windowContents = () => (mainWindow && !mainWindow.isDestroyed() ? mainWindow.webContents : null);

app.enableSandbox();
registerAppScheme(protocol);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  handleCaseLinks(
    { app, defaultApp: process.defaultApp === true, execPath: process.execPath, entry: process.argv[1] },
    openCase,
    focusWindow,
  );
  // Notifications on Windows show only for an app with its AppUserModelId (electron-builder's appId).
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, shell, serviceOrigins));
  app.on('window-all-closed', () => app.quit());
  // Quit waits for the desk to close (journal checkpointed, listener stopped), then goes on.
  app.on('will-quit', (event) => {
    const closing = desk;
    if (!closing) return;
    desk = null;
    event.preventDefault();
    closing.close().then(
      () => app.quit(),
      (error: unknown) => {
        log.error('closing failed', { error: String(error) });
        app.exit(1);
      },
    );
  });
  // A failure inside start (a journal from a newer Vetted, a settings file that cannot be read, a
  // sandbox that cannot listen) must not leave a windowless process holding the single-instance lock.
  app.whenReady().then(start).catch(startFailed);
}

/** Says why in words (a dialog and the log), then exits with 1. */
function startFailed(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  log.error('start-up failed', { error: message });
  dialog.showErrorBox('Vetted could not start', `${message}\n\nThe log has the details.`);
  app.exit(1);
}

/** The connected service's https origin: links it gives (its resources, documents) may open outside. */
function serviceOrigins(): string[] {
  const baseUrl = desk?.connection().status().baseUrl;
  if (!baseUrl) return [];
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'https:' ? [url.origin] : [];
  } catch {
    return [];
  }
}

function focusWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

/** A case link opened: the window shows that case, focused, whatever screen it was on. */
function openCase(customerId: string): void {
  if (!desk || !mainWindow) {
    pendingCase = customerId;
    return;
  }
  focusWindow();
  desk.events.emit('case.open', { customerId });
}

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  handleAppProtocol(protocol, path.join(import.meta.dirname, '../../../renderer'));
  const dataDir = app.getPath('userData');
  const updater = electronUpdates({
    updater: await loadUpdater(app, log),
    policy: readPolicyAtStart(log),
    version: app.getVersion(),
  });
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
        updates: updater.factory,
        dataDir,
        log,
        vault,
        vaultProblem,
        createSettingsStore: createElectronStore,
        startSandbox,
      });
      // The desk's own answer refuses (browser mode cannot restart itself); this host can.
      desk.handlers['app.restart'] = electronRestart(app);
      dispatch = desk.dispatcher(isTrusted);
      desk.events.subscribe(pushToWindow(windowContents));
      // The OS locking its screen, or the machine going to sleep, locks the desk too (until it quits).
      lockWithTheOs(desk);
      showNatively(
        desk.events,
        nativeNotifications(Notification, focusWindow, (error) => log.warn('notification failed', { error })),
      );
      // The updates feature is the desk's: it exists once the vault is open, whenever that is.
      startUpdates(updater.updates());
      // A link that came while the vault was locked: the window is there, showing the unlock screen.
      if (pendingCase && mainWindow) {
        const customerId = pendingCase;
        pendingCase = null;
        desk.events.emit('case.open', { customerId });
      }
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
    mainWindowOptions(path.join(import.meta.dirname, '../../../preload/index.cjs'), {
      packaged: app.isPackaged,
      icon: windowIcon(app.isPackaged),
    }),
  );
  showWhenReady(mainWindow);
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  // Started by a case link: the window opens on that case (the renderer's route for it).
  const opening = pendingCase;
  pendingCase = null;
  await mainWindow.loadURL(`${APP_ORIGIN}/${opening ? `#/case/${encodeURIComponent(opening)}` : ''}`);
}

/** The application menu (Help → Check for Updates…) and the periodic checks, in installed builds. */
function startUpdates(updates: ReturnType<ReturnType<typeof electronUpdates>['updates']>): void {
  if (!updates) return;
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        platform: process.platform,
        updates: updates.status(),
        checkForUpdates: () => void checkFromMenu(() => updates.check()),
      }),
    ),
  );
  updates.start();
}

/** A check asked for from the menu answers in a message box, whatever it found. */
async function checkFromMenu(check: () => Promise<UpdateStatus>): Promise<void> {
  const outcome = checkOutcome(await check());
  const window = mainWindow && !mainWindow.isDestroyed() ? mainWindow : null;
  const options = { ...outcome, buttons: ['OK'] };
  await (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
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

/**
 * The window's icon where the platform takes it from the window (Linux, Windows) and the app is run from a
 * checkout: the PNG `npm run icons` renders from assets/icon.svg. Installed builds carry it already.
 */
function windowIcon(packaged: boolean): string | undefined {
  const icon = path.join(import.meta.dirname, '../../../../build/icons/512x512.png');
  return !packaged && existsSync(icon) ? icon : undefined;
}
