import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFieldKey, decryptField, encryptField } from '#main/ground/crypto.ts';
import {
  describeProtection,
  openElectronVault,
  openFileKeyVault,
  type SafeStorageLike,
  VaultCorruptError,
  VaultError,
} from '#main/ground/vault/vault.ts';

const SECRETS = {
  clientSecret: 'cs_live_9f8e7d6c5b4a39281706',
  sandboxClientSecret: 'sandbox-secret-0123456789abcdef',
  'webhookSecret:sub-42': 'whsec_Zq3mV8xLk2Pn7Rt5',
} as const;

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-vault-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function filesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

// Every encoding a careless implementation might write a secret in.
function encodingsOf(secret: string | Buffer): Buffer[] {
  const bytes = Buffer.from(secret);
  return [
    bytes,
    Buffer.from(bytes.toString('base64')),
    Buffer.from(bytes.toString('base64url')),
    Buffer.from(bytes.toString('hex')),
    ...(typeof secret === 'string' ? [Buffer.from(secret, 'utf16le')] : []),
  ];
}

/** Scans every byte of every file under `dir`. */
function expectNoPlaintext(dir: string, secrets: Array<string | Buffer>): void {
  const files = filesIn(dir);
  for (const file of files) {
    const content = fs.readFileSync(file);
    for (const secret of secrets) {
      for (const encoded of encodingsOf(secret)) {
        expect(content.includes(encoded), `${path.basename(file)} contains a secret`).toBe(false);
      }
    }
  }
}

function fillVault(vault: ReturnType<typeof openFileKeyVault>): void {
  for (const [name, value] of Object.entries(SECRETS)) vault.set(name as keyof typeof SECRETS, value);
}

/** A stand-in for Electron's safeStorage that really encrypts, with its own key (the "OS keychain"). */
function fakeSafeStorage(opts: { available?: boolean; backend?: string; keychainKey?: Buffer } = {}) {
  const keychainKey = opts.keychainKey ?? createFieldKey();
  const calls = { encrypt: 0, decrypt: 0 };
  const safeStorage: SafeStorageLike & { calls: typeof calls } = {
    calls,
    isEncryptionAvailable: () => opts.available ?? true,
    encryptString(text) {
      calls.encrypt++;
      return Buffer.from(encryptField(keychainKey, text));
    },
    decryptString(blob) {
      calls.decrypt++;
      return decryptField(keychainKey, blob.toString());
    },
    ...(opts.backend === undefined ? {} : { getSelectedStorageBackend: () => opts.backend as string }),
  };
  return safeStorage;
}

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('the plaintext scan used below', () => {
  it('finds a secret written raw, in base64 or in hex', () => {
    for (const encode of [
      (s: string) => s,
      (s: string) => Buffer.from(s).toString('base64'),
      (s: string) => Buffer.from(s).toString('hex'),
    ]) {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'nested'));
      fs.writeFileSync(path.join(dir, 'nested', 'leak.txt'), `prefix ${encode(SECRETS.clientSecret)} suffix`);
      expect(() => expectNoPlaintext(dir, [SECRETS.clientSecret])).toThrow(/leak\.txt contains a secret/);
    }
  });
});

describe('file-key vault (browser mode)', () => {
  it('round-trips secrets, across a restart', () => {
    const dir = tempDir();
    const vault = openFileKeyVault({ dir });
    expect(vault.protection).toBe('file-permissions');
    expect(vault.get('clientSecret')).toBeUndefined();
    fillVault(vault);
    expect(vault.get('clientSecret')).toBe(SECRETS.clientSecret);
    expect(vault.has('webhookSecret:sub-42')).toBe(true);

    const reopened = openFileKeyVault({ dir });
    for (const [name, value] of Object.entries(SECRETS))
      expect(reopened.get(name as 'clientSecret')).toBe(value);
    expect(reopened.names().sort()).toEqual(Object.keys(SECRETS).sort());

    reopened.delete('sandboxClientSecret');
    expect(openFileKeyVault({ dir }).has('sandboxClientSecret')).toBe(false);
  });

  it('creates the key file and the vault file with mode 0600, and leaves no temp files', () => {
    const dir = tempDir();
    fillVault(openFileKeyVault({ dir }));
    expect(fs.readdirSync(dir).sort()).toEqual(['vault.json', 'vault.key']);
    expect(modeOf(path.join(dir, 'vault.key'))).toBe(0o600);
    expect(modeOf(path.join(dir, 'vault.json'))).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'vault.key')).size).toBe(32);
  });

  it('refuses a key file readable by group or others, says so clearly, and leaves it as it is', () => {
    const dir = tempDir();
    fillVault(openFileKeyVault({ dir }));
    const keyFile = path.join(dir, 'vault.key');
    const before = fs.readFileSync(keyFile);
    for (const mode of [0o640, 0o604, 0o660]) {
      fs.chmodSync(keyFile, mode);
      const error = catchError(() => openFileKeyVault({ dir }));
      expect(error).toBeInstanceOf(VaultError);
      expect(error.message).toContain(keyFile);
      expect(error.message).toMatch(/other users.*refuses to use it/);
      expect(error.message).toContain('chmod 600');
    }
    expect(fs.readFileSync(keyFile).equals(before)).toBe(true);
    fs.chmodSync(keyFile, 0o600);
    expect(openFileKeyVault({ dir }).get('clientSecret')).toBe(SECRETS.clientSecret);
  });

  it('refuses a key file that is a symbolic link', () => {
    const dir = tempDir();
    const elsewhere = path.join(tempDir(), 'planted.key');
    fs.writeFileSync(elsewhere, createFieldKey(), { mode: 0o600 });
    fs.symlinkSync(elsewhere, path.join(dir, 'vault.key'));
    expect(() => openFileKeyVault({ dir })).toThrow(/symbolic link/);
  });

  it('never writes a secret, or the data key, in plaintext to any file', () => {
    const dir = tempDir();
    const vault = openFileKeyVault({ dir });
    fillVault(vault);
    const dataKey = vault.dataKey();
    openFileKeyVault({ dir }).set('clientSecret', `${SECRETS.clientSecret}-rotated`);
    expect(filesIn(dir).length).toBe(2);
    expectNoPlaintext(dir, [...Object.values(SECRETS), `${SECRETS.clientSecret}-rotated`, dataKey]);
  });

  it('gives a 32-byte data key, created once and stable across restarts, not listed among secrets', () => {
    const dir = tempDir();
    const vault = openFileKeyVault({ dir });
    const dataKey = vault.dataKey();
    expect(dataKey.length).toBe(32);
    expect(vault.dataKey().equals(dataKey)).toBe(true);
    expect(openFileKeyVault({ dir }).dataKey().equals(dataKey)).toBe(true);
    expect(vault.names()).toEqual([]);
    // A caller scribbling on the returned buffer does not change the stored key.
    dataKey.fill(0);
    expect(vault.dataKey().equals(dataKey)).toBe(false);
  });

  it('keeps a tampered vault file aside with a clear error naming it, then starts empty', () => {
    const dir = tempDir();
    fillVault(openFileKeyVault({ dir }));
    const vaultFile = path.join(dir, 'vault.json');
    const body = JSON.parse(fs.readFileSync(vaultFile, 'utf8'));
    const [version, nonce, tag, ciphertext] = body.secrets.clientSecret.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0]! ^= 1;
    body.secrets.clientSecret = [version, nonce, tag, flipped.toString('base64url')].join('.');
    const tampered = JSON.stringify(body);
    fs.writeFileSync(vaultFile, tampered);

    const error = catchError(() => openFileKeyVault({ dir }));
    expect(error).toBeInstanceOf(VaultCorruptError);
    expect(error.message).toContain(vaultFile);
    expect(error.message).toMatch(/could not be decrypted/);
    const { keptAs } = error as VaultCorruptError;
    expect(path.basename(keptAs)).toMatch(/^vault\.json\.corrupt-/);
    expect(error.message).toContain(keptAs);
    expect(fs.readFileSync(keptAs, 'utf8')).toBe(tampered);
    expect(fs.existsSync(vaultFile)).toBe(false);
    for (const value of Object.values(SECRETS)) expect(error.message).not.toContain(value);

    expect(openFileKeyVault({ dir }).names()).toEqual([]);
  });

  it('keeps an unparsable vault file aside, never wiping it', () => {
    const dir = tempDir();
    openFileKeyVault({ dir }).set('clientSecret', SECRETS.clientSecret);
    const vaultFile = path.join(dir, 'vault.json');
    fs.writeFileSync(vaultFile, '{"version": 1, "secrets": {');
    const error = catchError(() => openFileKeyVault({ dir })) as VaultCorruptError;
    expect(error).toBeInstanceOf(VaultCorruptError);
    expect(error.message).toMatch(/vault\.json is not a valid vault file/);
    expect(fs.readFileSync(error.keptAs, 'utf8')).toBe('{"version": 1, "secrets": {');
  });

  it('treats a replaced key file as a wrong key: the vault file is kept aside', () => {
    const dir = tempDir();
    fillVault(openFileKeyVault({ dir }));
    fs.writeFileSync(path.join(dir, 'vault.key'), createFieldKey());
    const error = catchError(() => openFileKeyVault({ dir }));
    expect(error).toBeInstanceOf(VaultCorruptError);
    expect(error.message).toMatch(/key file was replaced/);
  });

  it('says so when the key file is missing but the vault file is there', () => {
    const dir = tempDir();
    fillVault(openFileKeyVault({ dir }));
    fs.rmSync(path.join(dir, 'vault.key'));
    expect(() => openFileKeyVault({ dir })).toThrow(/key file .*vault\.key was missing/);
  });

  it('keeps a key file of the wrong size aside, together with the vault file it protected', () => {
    const dir = tempDir();
    fillVault(openFileKeyVault({ dir }));
    fs.writeFileSync(path.join(dir, 'vault.key'), 'short', { mode: 0o600 });
    const error = catchError(() => openFileKeyVault({ dir }));
    expect(error).toBeInstanceOf(VaultCorruptError);
    expect(error.message).toMatch(/not a key \(5 bytes/);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.corrupt-'))).toHaveLength(2);
    expect(openFileKeyVault({ dir }).names()).toEqual([]);
  });

  it('binds each sealed secret to its name: values swapped in the file do not decrypt', () => {
    const dir = tempDir();
    fillVault(openFileKeyVault({ dir }));
    const vaultFile = path.join(dir, 'vault.json');
    const body = JSON.parse(fs.readFileSync(vaultFile, 'utf8'));
    [body.secrets.clientSecret, body.secrets.sandboxClientSecret] = [
      body.secrets.sandboxClientSecret,
      body.secrets.clientSecret,
    ];
    fs.writeFileSync(vaultFile, JSON.stringify(body));
    expect(() => openFileKeyVault({ dir })).toThrow(VaultCorruptError);
  });

  it('refuses unknown secret names without echoing them', () => {
    const vault = openFileKeyVault({ dir: tempDir() });
    const misuse = () => vault.set(SECRETS.clientSecret as 'clientSecret', 'clientSecret');
    expect(misuse).toThrow(/Unknown secret name/);
    expect(catchError(misuse).message).not.toContain(SECRETS.clientSecret);
    expect(() => vault.get('dataKey' as 'clientSecret')).toThrow(/Unknown secret name/);
    expect(() => vault.delete('webhookSecret:' as 'clientSecret')).toThrow(/Unknown secret name/);
  });

  it('leaves a vault file sealed by the Electron host untouched, with a clear error', () => {
    const dir = tempDir();
    openElectronVault({ dir, safeStorage: fakeSafeStorage() }).set('clientSecret', SECRETS.clientSecret);
    const vaultFile = path.join(dir, 'vault.json');
    const before = fs.readFileSync(vaultFile, 'utf8');
    const error = catchError(() => openFileKeyVault({ dir }));
    expect(error).toBeInstanceOf(VaultError);
    expect(error).not.toBeInstanceOf(VaultCorruptError);
    expect(error.message).toMatch(/sealed with safeStorage.*left untouched/);
    expect(fs.readFileSync(vaultFile, 'utf8')).toBe(before);
  });
});

describe('Electron vault (safeStorage)', () => {
  it('seals secrets with safeStorage in a 0600 vault.json, readable after a restart', () => {
    const dir = tempDir();
    const safeStorage = fakeSafeStorage({ backend: 'gnome_libsecret' });
    const vault = openElectronVault({ dir, safeStorage });
    expect(vault.protection).toBe('os-keychain');
    fillVault(vault);
    const dataKey = vault.dataKey();
    expect(safeStorage.calls.encrypt).toBeGreaterThan(0);
    expect(fs.readdirSync(dir)).toEqual(['vault.json']);
    expect(modeOf(path.join(dir, 'vault.json'))).toBe(0o600);
    expectNoPlaintext(dir, [...Object.values(SECRETS), dataKey]);

    const reopened = openElectronVault({ dir, safeStorage });
    expect(reopened.get('webhookSecret:sub-42')).toBe(SECRETS['webhookSecret:sub-42']);
    expect(reopened.dataKey().equals(dataKey)).toBe(true);
  });

  it('works where getSelectedStorageBackend does not exist (macOS, Windows)', () => {
    const vault = openElectronVault({ dir: tempDir(), safeStorage: fakeSafeStorage() });
    expect(vault.protection).toBe('os-keychain');
  });

  it('with the basic_text backend keeps secrets in memory only and writes nothing', () => {
    const dir = tempDir();
    const safeStorage = fakeSafeStorage({ available: true, backend: 'basic_text' });
    const vault = openElectronVault({ dir, safeStorage });
    expect(vault.protection).toBe('memory-only');
    fillVault(vault);
    expect(vault.get('clientSecret')).toBe(SECRETS.clientSecret);
    expect(vault.dataKey().length).toBe(32);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(safeStorage.calls.encrypt).toBe(0);
    expect(openElectronVault({ dir, safeStorage }).has('clientSecret')).toBe(false);
  });

  it('with encryption unavailable keeps secrets in memory only and writes nothing', () => {
    const dir = path.join(tempDir(), 'not-yet-created');
    const vault = openElectronVault({ dir, safeStorage: fakeSafeStorage({ available: false }) });
    expect(vault.protection).toBe('memory-only');
    fillVault(vault);
    expect(vault.get('sandboxClientSecret')).toBe(SECRETS.sandboxClientSecret);
    vault.delete('sandboxClientSecret');
    expect(vault.has('sandboxClientSecret')).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('memory-only: the data key lives as long as the process, and a saved vault file is left alone', () => {
    const dir = tempDir();
    openElectronVault({ dir, safeStorage: fakeSafeStorage() }).set('clientSecret', SECRETS.clientSecret);
    const before = fs.readFileSync(path.join(dir, 'vault.json'));
    const unprotected = fakeSafeStorage({ backend: 'basic_text' });
    const first = openElectronVault({ dir, safeStorage: unprotected });
    expect(first.dataKey().equals(first.dataKey())).toBe(true);
    expect(first.dataKey().equals(openElectronVault({ dir, safeStorage: unprotected }).dataKey())).toBe(
      false,
    );
    expect(fs.readFileSync(path.join(dir, 'vault.json')).equals(before)).toBe(true);
  });

  it('keeps the vault file aside when the OS keychain cannot decrypt it any more', () => {
    const dir = tempDir();
    openElectronVault({ dir, safeStorage: fakeSafeStorage() }).set('clientSecret', SECRETS.clientSecret);
    const newKeychain = fakeSafeStorage();
    const error = catchError(() => openElectronVault({ dir, safeStorage: newKeychain })) as VaultCorruptError;
    expect(error).toBeInstanceOf(VaultCorruptError);
    expect(error.message).toMatch(/vault\.json could not be decrypted by the OS keychain/);
    expect(fs.existsSync(error.keptAs)).toBe(true);
    expect(openElectronVault({ dir, safeStorage: newKeychain }).names()).toEqual([]);
  });

  it('keeps memory and disk in agreement when a write fails', () => {
    const dir = tempDir();
    const safeStorage = fakeSafeStorage();
    const vault = openElectronVault({ dir, safeStorage });
    vault.set('clientSecret', SECRETS.clientSecret);
    safeStorage.encryptString = () => {
      throw new Error('keychain locked');
    };
    expect(() => vault.set('sandboxClientSecret', SECRETS.sandboxClientSecret)).toThrow('keychain locked');
    expect(vault.has('sandboxClientSecret')).toBe(false);
    expect(vault.get('clientSecret')).toBe(SECRETS.clientSecret);
    expect(fs.readdirSync(dir)).toEqual(['vault.json']);
  });
});

describe('describeProtection', () => {
  it('gives the sentence the UI shows for each kind of protection', () => {
    expect(describeProtection('os-keychain')).toBe('Secrets protected by the OS keychain');
    expect(describeProtection('file-permissions')).toBe('Secrets protected by file permissions only');
    expect(describeProtection('memory-only')).toMatch(/^Secrets kept in memory only: not saved/);
  });
});
