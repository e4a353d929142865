import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { channelNames } from '#contract/channels.ts';
import { createFakeElectron, type FakeElectron } from './fake-electron.ts';

/** A Linux session without a keyring: safeStorage falls back to `basic_text`. */
function noKeyring(userData?: string): FakeElectron {
  const electron = createFakeElectron();
  electron.safeStorage.getSelectedStorageBackend = () => 'basic_text';
  if (userData) electron.app.getPath = () => userData;
  return electron;
}

// Each launch imports main/hosts/electron/index.ts afresh with its own fake Electron, on the same userData.
async function start(electron: FakeElectron) {
  vi.resetModules();
  vi.doMock('electron', () => electron);
  await import('#main/hosts/electron/index.ts');
  await vi.waitFor(() => expect(electron.windows[0]?.loadedUrl).toBe('app://vetted/'), {
    timeout: 15_000,
    interval: 20,
  });
  const window = electron.windows[0]!;
  const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
  return (channel: string, input?: unknown) => electron.ipcMain.handlers.get(channel)!(own, input);
}

const PASSPHRASE = `glue passphrase ${randomUUID()}`;

describe('main/hosts/electron/index.ts without an OS keyring', () => {
  it('opens on the unlock screen, serves only the vault channels, then the desk; a second launch asks again', async () => {
    const first = noKeyring();
    const call = await start(first);
    expect([...first.ipcMain.handlers.keys()].sort()).toEqual([...channelNames].sort());
    expect(await call('vault.status')).toMatchObject({
      ok: true,
      value: { state: 'new', reason: expect.stringMatching(/no keyring Vetted can use/) },
    });
    expect(await call('app.ping', { nonce: 'n1' })).toMatchObject({
      ok: false,
      error: { code: 'VaultLocked' },
    });
    expect(await call('settings.get')).toMatchObject({ ok: false, error: { code: 'VaultLocked' } });
    expect(await call('vault.create', { passphrase: 'short' })).toMatchObject({
      ok: false,
      error: { code: 'BadInput', fields: { '/passphrase': expect.stringMatching(/at least 12/) } },
    });

    expect(await call('vault.create', { passphrase: PASSPHRASE })).toEqual({
      ok: true,
      value: { state: 'open', reason: null },
    });
    expect(await call('app.ping', { nonce: 'n2' })).toMatchObject({ ok: true, value: { nonce: 'n2' } });
    expect(await call('vault.status')).toEqual({ ok: true, value: { state: 'open', reason: null } });
    const secret = `cs-${randomUUID()}`;
    expect(await call('settings.update', { clientId: 'vetted-desk', clientSecret: secret })).toMatchObject({
      ok: true,
      value: { hasClientSecret: true, secretProtection: 'passphrase' },
    });
    const dir = first.app.getPath();
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      expect(readFileSync(file, 'latin1'), name).not.toContain(secret);
      expect(readFileSync(file, 'latin1'), name).not.toContain(PASSPHRASE);
    }

    // Second launch on the same data: locked, a wrong passphrase refused in words, the right one opens.
    const second = noKeyring(dir);
    const again = await start(second);
    expect(await again('vault.status')).toMatchObject({ ok: true, value: { state: 'locked' } });
    expect(await again('settings.get')).toMatchObject({ ok: false, error: { code: 'VaultLocked' } });
    expect(await again('vault.create', { passphrase: PASSPHRASE })).toMatchObject({
      ok: false,
      error: { code: 'VaultRefused' },
    });
    expect(await again('vault.unlock', { passphrase: `${PASSPHRASE}!` })).toEqual({
      ok: false,
      error: {
        code: 'WrongPassphrase',
        message: 'That passphrase does not open this vault.',
        fields: { '/passphrase': 'That passphrase does not open this vault.' },
      },
    });
    expect(await again('vault.unlock', { passphrase: PASSPHRASE })).toMatchObject({
      ok: true,
      value: { state: 'open' },
    });
    expect(await again('settings.get')).toMatchObject({
      ok: true,
      value: { clientId: 'vetted-desk', hasClientSecret: true, secretProtection: 'passphrase' },
    });
    expect(await again('app.ping', { nonce: 'n3' })).toMatchObject({ ok: true, value: { nonce: 'n3' } });
  }, 60_000);
});
