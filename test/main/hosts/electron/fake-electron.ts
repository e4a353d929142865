import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in for the parts of Electron the glue touches, recording every call so tests can
 * assert each hardening setting (as Electron Fiddle's tests do with their electron mock).
 */

export class FakeFrame {
  url: string;
  constructor(url: string) {
    this.url = url;
  }
}

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  mainFrame = new FakeFrame('app://vetted/');
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  sent: unknown[][] = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  send(...args: unknown[]) {
    this.sent.push(args);
  }
  isDestroyed() {
    return false;
  }
  /** Emits an Electron-style event and tells whether a listener called preventDefault(). */
  fire(name: string, ...args: unknown[]): boolean {
    let prevented = false;
    // Only the details, url included, as Electron 45 wants them read (its positional url is deprecated).
    const [url, isMainFrame = true] = args;
    this.emit(name, { url, isMainFrame, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

export function createFakeElectron() {
  const userData = mkdtempSync(path.join(os.tmpdir(), 'vetted-glue-'));
  const windows: FakeBrowserWindow[] = [];
  class FakeBrowserWindow extends EventEmitter {
    options: { webPreferences?: Record<string, unknown> };
    webContents = new FakeWebContents();
    loadedUrl: string | null = null;
    constructor(options: { webPreferences?: Record<string, unknown> }) {
      super();
      this.options = options;
      windows.push(this);
    }
    async loadURL(url: string) {
      this.loadedUrl = url;
    }
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    show() {}
    focus() {}
    restore() {}
  }

  const app = Object.assign(new EventEmitter(), {
    enableSandbox: vitestFn(),
    requestSingleInstanceLock: vitestFn(() => true),
    whenReady: () => Promise.resolve(),
    getVersion: () => '0.0.0-test',
    getPath: () => userData,
    quit: vitestFn(),
    relaunch: vitestFn(),
    exit: vitestFn(),
    setAppUserModelId: vitestFn(),
    setAsDefaultProtocolClient: vitestFn((_scheme: string, _path?: string, _args?: string[]) => true),
    /** Unpackaged, as under `npm start`: electron-updater is not loaded. The updater test sets it. */
    isPackaged: false,
  });
  const protocol = {
    registerSchemesAsPrivileged: vitestFn(),
    handlers: new Map<string, (request: Request) => Promise<Response>>(),
    handle(scheme: string, handler: (request: Request) => Promise<Response>) {
      this.handlers.set(scheme, handler);
    },
  };
  const ipcMain = Object.assign(new EventEmitter(), {
    handlers: new Map<string, (event: unknown, input: unknown) => unknown>(),
    handle(channel: string, handler: (event: unknown, input: unknown) => unknown) {
      this.handlers.set(channel, handler);
    },
  });
  // A keychain that "encrypts" reversibly, enough to prove secrets go through it.
  const safeStorage = {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (text: string) => Buffer.from(text, 'utf8').reverse(),
    decryptString: (sealed: Buffer) => Buffer.from(sealed).reverse().toString('utf8'),
  };
  const session = {
    defaultSession: {
      permissionRequestHandler: null as null | ((...args: unknown[]) => void),
      permissionCheckHandler: null as null | ((...args: unknown[]) => boolean),
      setPermissionRequestHandler(handler: (...args: unknown[]) => void) {
        this.permissionRequestHandler = handler;
      },
      setPermissionCheckHandler(handler: (...args: unknown[]) => boolean) {
        this.permissionCheckHandler = handler;
      },
    },
  };
  class Notification extends EventEmitter {
    static isSupported = () => true;
    show() {}
  }
  const shell = { openExternal: vitestFn(async (_url: string) => {}) };
  const Menu = {
    applied: null as unknown,
    buildFromTemplate: (template: unknown) => ({ template }),
    setApplicationMenu(menu: unknown) {
      this.applied = menu;
    },
  };
  const dialog = {
    showMessageBox: vitestFn(async (..._args: unknown[]) => ({ response: 0 })),
    showErrorBox: vitestFn((_title: string, _content: string) => {}),
  };
  // The OS's lock-screen and sleep events; a test emits them.
  const powerMonitor = new EventEmitter();
  // Touch ID: off unless a test turns it on; `touchIdAnswers` decides each prompt.
  const systemPreferences = {
    touchIdAvailable: false,
    touchIdAnswers: true,
    canPromptTouchID() {
      return this.touchIdAvailable;
    },
    promptTouchID: vitestFn(async (_reason: string) => {
      if (!systemPreferences.touchIdAnswers) throw new Error('cancelled');
    }),
  };
  const electron = {
    app,
    powerMonitor,
    systemPreferences,
    BrowserWindow: FakeBrowserWindow,
    Menu,
    dialog,
    Notification,
    protocol,
    ipcMain,
    session,
    shell,
    safeStorage,
    windows,
  };
  // electron-store imports Electron's default export.
  return { ...electron, default: electron };
}

/** A minimal call recorder, so this file does not depend on vitest's globals. */
function vitestFn<A extends unknown[], R>(impl?: (...args: A) => R) {
  const calls: A[] = [];
  const fn = (...args: A) => {
    calls.push(args);
    return impl?.(...args) as R;
  };
  return Object.assign(fn, { calls });
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;

let shared: FakeElectron | null = null;
/** One fake per test file: the mocked module and the test see the same instance. */
export function sharedFakeElectron(): FakeElectron {
  shared ??= createFakeElectron();
  return shared;
}
