import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allNotifications } from '#contract/notifications.ts';
import {
  type ConfLike,
  type ConfLikeOptions,
  DEFAULT_SETTINGS,
  openSettings,
  type Settings,
  SettingsError,
} from '#main/ground/config/settings-store.ts';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-settings-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function settingsFile(dir: string): string {
  return path.join(dir, 'settings.json');
}

function keptAsideFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith('settings.json.corrupt-'))
    .map((name) => path.join(dir, name));
}

function updateError(dir: string, patch: Record<string, unknown>): SettingsError {
  const settings = openSettings({ dir });
  try {
    settings.update(patch as Partial<Settings>);
  } catch (error) {
    return error as SettingsError;
  }
  throw new Error('expected the update to be refused');
}

const custom: Partial<Settings> = {
  serviceMode: 'custom',
  baseUrl: 'https://api.example-payments.com',
  clientId: 'client-123',
  webhookPort: 9100,
  publicWebhookUrl: 'https://tunnel.example.net/webhooks',
  notifications: { ...allNotifications(true), status: false, approvalWaiting: false },
  updateChannel: 'beta',
  tokenEndpoint: 'real',
  requestRate: 5,
  requestBurst: 10,
  ageingTargets: { retry: 12, document: 36, review: 96 },
  overdueNotifications: false,
};

describe('settings', () => {
  it('starts with the defaults on first run, without a problem and without writing a file', () => {
    const dir = tempDir();
    const settings = openSettings({ dir });
    expect(settings.get()).toEqual({
      serviceMode: 'sandbox',
      webhookPort: 8789,
      notifications: allNotifications(true),
      updateChannel: 'stable',
      tokenEndpoint: 'automatic',
      requestRate: 10,
      requestBurst: 20,
      ageingTargets: { retry: 24, document: 48, review: 72 },
      overdueNotifications: true,
    });
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    expect(settings.problem).toBeNull();
    expect(settings.path).toBe(settingsFile(dir));
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
  });

  it('reads back after a restart what was written', () => {
    const dir = tempDir();
    const written = openSettings({ dir }).update(custom);
    expect(written).toEqual(custom);
    const reopened = openSettings({ dir });
    expect(reopened.problem).toBeNull();
    expect(reopened.get()).toEqual(custom);
    expect(JSON.parse(fs.readFileSync(settingsFile(dir), 'utf8'))).toEqual(custom);
    expect(fs.statSync(settingsFile(dir)).mode & 0o777).toBe(0o600);
  });

  it('merges a patch with the current settings, and clears an optional field given as undefined', () => {
    const dir = tempDir();
    const settings = openSettings({ dir });
    settings.update(custom);
    expect(settings.update({ webhookPort: 9200 })).toEqual({ ...custom, webhookPort: 9200 });
    const cleared = settings.update({ publicWebhookUrl: undefined });
    expect(cleared.publicWebhookUrl).toBeUndefined();
    expect(openSettings({ dir }).get()).toEqual({
      ...custom,
      webhookPort: 9200,
      publicWebhookUrl: undefined,
    });
  });

  it('accepts http only to a loopback host for the base URL', () => {
    const settings = openSettings({ dir: tempDir() });
    for (const baseUrl of ['http://127.0.0.1:4010', 'http://localhost:4010/api', 'http://[::1]:4010']) {
      expect(settings.update({ baseUrl }).baseUrl).toBe(baseUrl);
    }
  });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['a bad URL', { baseUrl: 'not a url' }, 'baseUrl', /baseUrl: must be a valid URL/],
    [
      'http to a non-loopback host',
      { baseUrl: 'http://api.example.com' },
      'baseUrl',
      /baseUrl: must use https/,
    ],
    ['another scheme', { baseUrl: 'ftp://127.0.0.1' }, 'baseUrl', /baseUrl: must use https/],
    [
      'credentials in the URL',
      { baseUrl: 'https://me:pw@api.example.com' },
      'baseUrl',
      /user name or password/,
    ],
    [
      'an http public webhook URL',
      { publicWebhookUrl: 'http://localhost/hook' },
      'publicWebhookUrl',
      /must use https$/,
    ],
    ['an unknown service mode', { serviceMode: 'production' }, 'serviceMode', /serviceMode:/],
    ['a privileged port', { webhookPort: 80 }, 'webhookPort', /webhookPort:/],
    ['a port out of range', { webhookPort: 70000 }, 'webhookPort', /webhookPort:/],
    ['a fractional port', { webhookPort: 8789.5 }, 'webhookPort', /webhookPort:/],
    ['a port given as text', { webhookPort: '8789' }, 'webhookPort', /webhookPort:/],
    ['a too long client id', { clientId: 'x'.repeat(201) }, 'clientId', /clientId:/],
    ['an unknown key', { theme: 'dark' }, 'theme', /theme: not a setting$/],
    [
      'a secret-looking key',
      { clientSecret: 's3cr3t' },
      'clientSecret',
      /clientSecret: not a setting \(secrets are kept in the vault/,
    ],
  ])('refuses %s with a clear error naming the field', (_what, patch, field, message) => {
    const dir = tempDir();
    const error = updateError(dir, patch);
    expect(error).toBeInstanceOf(SettingsError);
    expect(error.message).toMatch(/^Invalid settings: /);
    expect(error.message).toMatch(message);
    expect(error.fields).toEqual([field]);
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
  });

  it('lists every bad field, never echoes the values, and leaves the settings unchanged', () => {
    const dir = tempDir();
    const settings = openSettings({ dir });
    settings.update(custom);
    const before = fs.readFileSync(settingsFile(dir), 'utf8');
    const patch = { baseUrl: 'http://hunter2.example.com', webhookPort: 1, password: 'hunter2' };
    const error = (() => {
      try {
        settings.update(patch as Partial<Settings>);
      } catch (caught) {
        return caught as SettingsError;
      }
    })();
    expect(error?.fields.sort()).toEqual(['baseUrl', 'password', 'webhookPort']);
    expect(error?.message).not.toContain('hunter2');
    expect(settings.get()).toEqual(custom);
    expect(fs.readFileSync(settingsFile(dir), 'utf8')).toBe(before);
  });

  it('keeps a corrupt JSON file aside, byte for byte, says so, and starts on the defaults', () => {
    const dir = tempDir();
    openSettings({ dir }).update(custom);
    const corrupt = '{\n  "serviceMode": "custom",\n  "baseUrl": "https://api.exa';
    fs.writeFileSync(settingsFile(dir), corrupt);

    const settings = openSettings({ dir });
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    const [keptAs] = keptAsideFiles(dir);
    expect(keptAs).toBeDefined();
    expect(fs.readFileSync(keptAs!, 'utf8')).toBe(corrupt);
    expect(settings.problem).toContain(`The settings file ${settingsFile(dir)} is not valid JSON`);
    expect(settings.problem).toContain(`It was kept as ${keptAs}`);
    expect(settings.problem).toContain('default settings are in use');
    expect(settings.problem).not.toContain('api.exa');

    // The app carries on: a new file is written, the kept one is not touched.
    settings.update({ clientId: 'fresh' });
    expect(openSettings({ dir }).get().clientId).toBe('fresh');
    expect(fs.readFileSync(keptAs!, 'utf8')).toBe(corrupt);
  });

  it('keeps an empty settings file aside too', () => {
    const dir = tempDir();
    fs.writeFileSync(settingsFile(dir), '');
    const settings = openSettings({ dir });
    expect(settings.problem).toMatch(/is not valid JSON/);
    expect(keptAsideFiles(dir)).toHaveLength(1);
  });

  it('keeps a hand-edited file with an invalid value aside, names the field, and starts on the defaults', () => {
    const dir = tempDir();
    const handEdited = JSON.stringify({ ...custom, webhookPort: 'eighty' }, null, 2);
    fs.writeFileSync(settingsFile(dir), handEdited);

    const settings = openSettings({ dir });
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    const [keptAs] = keptAsideFiles(dir);
    expect(fs.readFileSync(keptAs!, 'utf8')).toBe(handEdited);
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
    expect(settings.problem).toMatch(/has invalid values \(webhookPort: [^)]*\)/);
    expect(settings.problem).toContain(keptAs);
    expect(openSettings({ dir }).problem).toBeNull();
  });

  it('treats a secret written into the settings file by hand as invalid, without repeating it', () => {
    const dir = tempDir();
    fs.writeFileSync(settingsFile(dir), JSON.stringify({ serviceMode: 'custom', clientSecret: 'hunter2' }));
    const settings = openSettings({ dir });
    expect(settings.problem).toMatch(/clientSecret: not a setting \(secrets are kept in the vault/);
    expect(settings.problem).not.toContain('hunter2');
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    expect(keptAsideFiles(dir)).toHaveLength(1);
  });

  it('fills in defaults for keys missing from an older file, without calling it a problem', () => {
    const dir = tempDir();
    fs.writeFileSync(settingsFile(dir), JSON.stringify({ serviceMode: 'custom', clientId: 'client-123' }));
    const settings = openSettings({ dir });
    expect(settings.problem).toBeNull();
    expect(settings.get()).toEqual({ ...DEFAULT_SETTINGS, serviceMode: 'custom', clientId: 'client-123' });
  });

  it('reads the one notifications switch of older files: off turns every kind off, on every kind on', () => {
    const off = tempDir();
    fs.writeFileSync(settingsFile(off), JSON.stringify({ notifications: false }));
    expect(openSettings({ dir: off }).get().notifications).toEqual(allNotifications(false));
    expect(openSettings({ dir: off }).problem).toBeNull();
    const on = tempDir();
    fs.writeFileSync(settingsFile(on), JSON.stringify({ notifications: true }));
    expect(openSettings({ dir: on }).get().notifications).toEqual(allNotifications(true));
  });

  it('turns on a kind a file does not name yet, and refuses a kind it does not know', () => {
    const dir = tempDir();
    fs.writeFileSync(settingsFile(dir), JSON.stringify({ notifications: { status: false } }));
    expect(openSettings({ dir }).get().notifications).toEqual({ ...allNotifications(true), status: false });
    const error = updateError(dir, { notifications: { ...allNotifications(true), everything: true } });
    expect(error.fields).toEqual(['notifications.everything']);
  });

  it('gives an injected store (electron-store under Electron) the same options, naming the file for both', () => {
    const dir = tempDir();
    const seen: ConfLikeOptions[] = [];
    let saved: Record<string, unknown> = { serviceMode: 'custom' };
    const createStore = (options: ConfLikeOptions): ConfLike => {
      seen.push(options);
      return {
        path: path.join(options.cwd, `${options.name}.json`),
        get store() {
          return { ...saved };
        },
        set store(value) {
          saved = value;
        },
      };
    };
    const settings = openSettings({ dir, createStore });
    expect(seen).toEqual([
      expect.objectContaining({
        cwd: dir,
        configName: 'settings',
        name: 'settings',
        clearInvalidConfig: false,
      }),
    ]);
    expect(settings.get().serviceMode).toBe('custom');
    settings.update({ clientId: 'client-9' });
    expect(saved).toEqual({ ...DEFAULT_SETTINGS, serviceMode: 'custom', clientId: 'client-9' });
  });
});
