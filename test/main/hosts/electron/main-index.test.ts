import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { channelNames } from '#contract/channels.ts';
import { type FakeElectron, FakeWebContents, sharedFakeElectron } from './fake-electron.ts';

vi.mock('electron', async () => (await import('./fake-electron.ts')).sharedFakeElectron());

let electron: FakeElectron;

beforeAll(async () => {
  electron = sharedFakeElectron();
  await import('#main/hosts/electron/index.ts');
  await vi.waitFor(() => expect(electron.windows[0]?.loadedUrl).toBeTruthy(), {
    timeout: 15_000,
    interval: 20,
  });
});

describe('main/hosts/electron/index.ts under a mocked Electron', () => {
  it('sandboxes every renderer and takes the single-instance lock', () => {
    expect(electron.app.enableSandbox.calls).toHaveLength(1);
    expect(electron.app.requestSingleInstanceLock.calls).toHaveLength(1);
  });

  it('registers app:// as a privileged standard scheme and loads the window from it, not file://', () => {
    expect(electron.protocol.registerSchemesAsPrivileged.calls[0]?.[0]).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(electron.protocol.handlers.has('app')).toBe(true);
    expect(electron.windows[0]?.loadedUrl).toBe('app://vetted/');
  });

  it('opens one window with every hardening setting', () => {
    expect(electron.windows).toHaveLength(1);
    const prefs = electron.windows[0]?.options.webPreferences ?? {};
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      experimentalFeatures: false,
      // Unpackaged here (npm start); an installed build has none.
      devTools: true,
    });
    expect(String(prefs.preload)).toMatch(/preload[/\\]index\.cjs$/);
  });

  it('denies every permission request and check', () => {
    const session = electron.session.defaultSession;
    const answers: boolean[] = [];
    session.permissionRequestHandler?.(null, 'media', (granted: boolean) => answers.push(granted));
    session.permissionRequestHandler?.(null, 'notifications', (granted: boolean) => answers.push(granted));
    expect(answers).toEqual([false, false]);
    expect(session.permissionCheckHandler?.(null, 'clipboard-read')).toBe(false);
  });

  it('hardens every web contents created: no new windows, no navigation, no webviews', () => {
    const contents = new FakeWebContents();
    electron.app.emit('web-contents-created', {}, contents);
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'https://github.com/vetted' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal.calls).toEqual([['https://github.com/vetted']]);
    expect(contents.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-navigate', 'app://vetted/')).toBe(false);
    // A subframe's navigation is its own event: refused the same.
    expect(contents.fire('will-frame-navigate', 'https://evil.example/', false)).toBe(true);
    expect(contents.fire('will-frame-navigate', 'app://vetted/', false)).toBe(false);
    expect(contents.fire('will-redirect', 'app://vetted/')).toBe(false);
    expect(contents.fire('will-attach-webview')).toBe(true);
  });

  it('handles exactly the contract channels over IPC, and listens to nothing else', () => {
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual([...channelNames].sort());
    // electron-store's own synchronous channel is removed: every IPC goes through the contract.
    expect(electron.ipcMain.eventNames()).toEqual([]);
  });

  it('keeps settings in the user data directory and a client secret sent over IPC in none of its files', async () => {
    const window = electron.windows[0]!;
    const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const secret = `cs-${randomUUID()}`;
    const update = electron.ipcMain.handlers.get('settings.update')!;
    const answer = await update(own, { clientId: 'vetted-desk', clientSecret: secret });
    expect(answer).toMatchObject({ ok: true, value: { clientId: 'vetted-desk', hasClientSecret: true } });
    expect(JSON.stringify(answer)).not.toContain(secret);

    const dir = electron.app.getPath();
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) =>
      statSync(path.join(dir, name)).isFile(),
    );
    expect(files).toEqual(expect.arrayContaining(['vault.json', 'journal.db']));
    for (const needle of [
      secret,
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('hex'),
    ]) {
      for (const name of files)
        expect(readFileSync(path.join(dir, name), 'latin1'), name).not.toContain(needle);
    }
    // The secret is kept, sealed by safeStorage: the vault reads it back.
    const sealed = readFileSync(path.join(dir, 'vault.json'), 'utf8');
    expect(sealed).not.toBe('');
    expect((await update(own, {})) as unknown).toMatchObject({ ok: true, value: { hasClientSecret: true } });
  });

  it('answers our own window and refuses any other sender or frame', async () => {
    const window = electron.windows[0]!;
    const ping = electron.ipcMain.handlers.get('app.ping')!;
    const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    expect(await ping(own, { nonce: 'n1' })).toMatchObject({ ok: true, value: { nonce: 'n1' } });

    const stranger = new FakeWebContents();
    const foreign = { sender: stranger, senderFrame: stranger.mainFrame };
    expect(await ping(foreign, { nonce: 'n1' })).toMatchObject({ ok: false, error: { code: 'Forbidden' } });

    const subFrame = { sender: window.webContents, senderFrame: { url: 'app://vetted/' } };
    expect(await ping(subFrame, { nonce: 'n1' })).toMatchObject({ ok: false, error: { code: 'Forbidden' } });

    window.webContents.mainFrame.url = 'https://evil.example/';
    expect(await ping(own, { nonce: 'n1' })).toMatchObject({ ok: false, error: { code: 'Forbidden' } });
    window.webContents.mainFrame.url = 'app://vetted/';

    expect(await ping({ sender: window.webContents, senderFrame: null }, { nonce: 'n1' })).toMatchObject({
      ok: false,
      error: { code: 'Forbidden' },
    });
  });

  it('refuses a bad payload with field errors and no stack trace', async () => {
    const window = electron.windows[0]!;
    const ping = electron.ipcMain.handlers.get('app.ping')!;
    const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const result = (await ping(own, { nonce: 7, extra: true })) as {
      ok: false;
      error: Record<string, unknown>;
    };
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('BadInput');
    expect(Object.keys(result.error.fields as object)).toContain('/nonce');
    expect(JSON.stringify(result)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('serves the renderer over app:// with the CSP, and nothing outside it', async () => {
    const handler = electron.protocol.handlers.get('app')!;
    const traversal = await handler(new Request('app://vetted/%2e%2e/%2e%2e/package.json'));
    expect(traversal.status).toBe(404);
    const page = await handler(new Request('app://vetted/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-(eval|inline)/);
    const otherHost = await handler(new Request('app://elsewhere/index.html'));
    expect(otherHost.status).toBe(404);
    const missing = await handler(new Request('app://vetted/nope.js'));
    expect(missing.status).toBe(404);
  });

  it('locks an armed desk when the OS locks its screen: the window hears it, customers are refused until unlocked', async () => {
    const window = electron.windows[0]!;
    const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const call = (channel: string, input?: unknown) => electron.ipcMain.handlers.get(channel)!(own, input);
    const queue = { section: 'all', search: '', offset: 0, limit: 5 };
    expect(await call('lock.arm', { secret: 'a lock secret' })).toMatchObject({ ok: true });
    electron.powerMonitor.emit('lock-screen');
    const pushed = window.webContents.sent.filter(([, event]) => event === 'lock.changed');
    expect(pushed.at(-1)?.[2]).toMatchObject({ locked: true, reason: 'os-lock' });
    expect(await call('queue.window', queue)).toMatchObject({ ok: false, error: { code: 'Locked' } });
    expect(await call('lock.unlock', { secret: 'a lock secret' })).toMatchObject({ ok: true });
    expect(await call('queue.window', queue)).toMatchObject({ ok: true });
  });

  // After joining or leaving a team the desk must start again: under Electron `app.restart` relaunches it.
  it('app.restart from our own window answers, then relaunches and quits (will-quit closes the desk)', async () => {
    const window = electron.windows[0]!;
    const restart = electron.ipcMain.handlers.get('app.restart')!;
    const stranger = new FakeWebContents();
    expect(await restart({ sender: stranger, senderFrame: stranger.mainFrame }, undefined)).toMatchObject({
      ok: false,
      error: { code: 'Forbidden' },
    });
    expect(electron.app.relaunch.calls).toHaveLength(0);

    const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    expect(await restart(own, undefined)).toEqual({ ok: true, value: { restarting: true } });
    expect(electron.app.relaunch.calls).toHaveLength(1);
    await vi.waitFor(() => expect(electron.app.quit.calls).toHaveLength(1), { timeout: 5_000, interval: 10 });
  });
});
