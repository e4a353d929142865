// The vault keeps every secret of main (client secrets, webhook secrets, the journal's data key).
// Under Electron, secrets are sealed with safeStorage (the OS keychain); in browser mode, with a random key
// kept in a 0600 file. Where neither gives real protection (Linux `basic_text`), secrets stay in memory:
// nothing secret is ever written to disk in plaintext.
// Plain Node: the Electron piece (safeStorage) is passed in, so tests use a fake.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createFieldKey, decryptField, encryptField } from '../crypto.ts';
import {
  ensurePrivateDir,
  errorCode,
  keepCorruptFileAside,
  readFileIfExists,
  syncDirectory,
  writeFileAtomic,
} from '../private-files.ts';

/** Shaped like Electron's `safeStorage`. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron. */
  getSelectedStorageBackend?(): string;
}

export type VaultProtection = 'os-keychain' | 'file-permissions' | 'memory-only' | 'passphrase';

/**
 * `webhookSecret:<subscription id>` keeps one signing secret per webhook subscription; `teamKey` and
 * `teamDatabasePassword` are team mode's data key and this reviewer's (or hub's) database password;
 * `lockSecretHash` the idle lock's secret as a slow hash (main/ground/lock/lock-secret.ts), sealed so it cannot be swapped.
 */
export type SecretName =
  | 'clientSecret'
  | 'sandboxClientSecret'
  | 'teamKey'
  | 'teamDatabasePassword'
  | 'lockSecretHash'
  | `webhookSecret:${string}`;

export interface Vault {
  /** How secrets are protected; `describeProtection` gives the sentence the UI shows. */
  readonly protection: VaultProtection;
  get(name: SecretName): string | undefined;
  /** Persists atomically before returning (unless memory-only). */
  set(name: SecretName, value: string): void;
  delete(name: SecretName): void;
  has(name: SecretName): boolean;
  /** Names of the secrets held (the data key is not listed), e.g. to drop secrets of old subscriptions. */
  names(): SecretName[];
  /**
   * 32-byte key for field encryption of personal data. Created once and kept as a secret itself, so it is
   * stable across restarts, except when memory-only: then it lives as long as the process.
   */
  dataKey(): Buffer;
}

/** A vault file (or key file) that exists but cannot be used. The message names the file, never a secret. */
export class VaultError extends Error {
  override name = 'VaultError';
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.file = file;
  }
}

/** The vault file was unreadable; it was renamed to `keptAs` (never deleted) and the next open starts empty. */
export class VaultCorruptError extends VaultError {
  override name = 'VaultCorruptError';
  readonly keptAs: string;
  constructor(file: string, keptAs: string, message: string) {
    super(file, message);
    this.keptAs = keptAs;
  }
}

const VAULT_FILE = 'vault.json';
const KEY_FILE = 'vault.key';
const KEY_BYTES = 32;
const DATA_KEY_SECRET = 'dataKey';
// A subscription id of the old alphabet names its secret as it is (every vault written before keeps working);
// any other id, base64url-encoded after a `~` that the old alphabet never held (subscription-secrets.ts).
const SECRET_NAME =
  /^(clientSecret|sandboxClientSecret|teamKey|teamDatabasePassword|lockSecretHash|webhookSecret:([A-Za-z0-9._:-]{1,200}|~[A-Za-z0-9_-]{1,1400}))$/;

const PROTECTION_NOTICES: Record<VaultProtection, string> = {
  'os-keychain': 'Secrets protected by the OS keychain',
  'file-permissions': 'Secrets protected by file permissions only',
  'memory-only': 'Secrets kept in memory only: not saved (no OS keychain available)',
  passphrase: 'Secrets sealed with your passphrase (no OS keychain available)',
};

export function describeProtection(protection: VaultProtection): string {
  return PROTECTION_NOTICES[protection];
}

export function isSecretName(name: unknown): name is SecretName {
  return typeof name === 'string' && SECRET_NAME.test(name);
}

/**
 * Electron host: secrets sealed by safeStorage in `<dir>/vault.json` (mode 0600). With the `basic_text`
 * backend or no encryption at all, the vault is memory-only and writes nothing.
 */
export function openElectronVault(opts: { dir: string; safeStorage: SafeStorageLike }): Vault {
  const { safeStorage } = opts;
  if (!osKeychainProtects(safeStorage)) return createVault('memory-only', new Map(), () => {});
  ensurePrivateDir(opts.dir);
  return openSealedVault('os-keychain', path.join(opts.dir, VAULT_FILE), {
    kind: 'safeStorage',
    seal: (_name, value) => safeStorage.encryptString(value).toString('base64'),
    open: (_name, sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
    openFailure:
      'could not be decrypted by the OS keychain (the file was altered, or the keychain entry changed)',
  });
}

/**
 * Browser mode: secrets AES-256-GCM encrypted in `<dir>/vault.json` with a random key in `<dir>/vault.key`,
 * both mode 0600. A key file that other users could read is refused: permissions are its only protection.
 */
export function openFileKeyVault(opts: { dir: string }): Vault {
  ensurePrivateDir(opts.dir);
  const keyFile = path.join(opts.dir, KEY_FILE);
  const vaultFile = path.join(opts.dir, VAULT_FILE);
  const existingKey = readKeyFile(keyFile, vaultFile);
  const key = existingKey ?? createKeyFile(keyFile);
  return openSealedVault('file-permissions', vaultFile, {
    kind: 'vault.key',
    // The secret's name is bound as AAD, so sealed values cannot be swapped between names.
    seal: (name, value) => encryptField(key, value, `vault:${name}`),
    open: (name, sealed) => decryptField(key, sealed, `vault:${name}`),
    openFailure: existingKey
      ? `could not be decrypted with the key in ${keyFile} (the file was altered, or the key file was replaced)`
      : `could not be decrypted: its key file ${keyFile} was missing, so a new key was created`,
  });
}

// On Linux, `basic_text` means safeStorage "encrypts" with a hard-coded password: no real protection.
export function osKeychainProtects(safeStorage: SafeStorageLike): boolean {
  return safeStorage.isEncryptionAvailable() && safeStorage.getSelectedStorageBackend?.() !== 'basic_text';
}

// ---- The vault itself: secrets in memory, written through `persist` on every change -------------------

export type Persist = (secrets: ReadonlyMap<string, string>) => void;

/** Exported for the passphrase vault (`passphrase-vault.ts`), which seals what it persists its own way. */
export function createVault(
  protection: VaultProtection,
  initial: Map<string, string>,
  persist: Persist,
): Vault {
  let secrets = initial;
  // Persist first, then switch: a failed write leaves memory and disk in agreement.
  const commit = (next: Map<string, string>) => {
    persist(next);
    secrets = next;
  };
  return {
    protection,
    get: (name) => secrets.get(checkedName(name)),
    has: (name) => secrets.has(checkedName(name)),
    names: () => [...secrets.keys()].filter(isSecretName),
    set(name, value) {
      checkedName(name);
      if (typeof value !== 'string') throw new TypeError('A secret must be a string');
      if (secrets.get(name) === value) return;
      commit(new Map(secrets).set(name, value));
    },
    delete(name) {
      checkedName(name);
      if (!secrets.has(name)) return;
      const next = new Map(secrets);
      next.delete(name);
      commit(next);
    },
    dataKey() {
      const stored = secrets.get(DATA_KEY_SECRET);
      if (stored === undefined) {
        const key = createFieldKey();
        commit(new Map(secrets).set(DATA_KEY_SECRET, key.toString('base64')));
        return key;
      }
      const key = Buffer.from(stored, 'base64');
      if (key.length !== KEY_BYTES)
        throw new Error(`The data key in the vault is not ${KEY_BYTES} bytes long`);
      return key;
    },
  };
}

// The name is not echoed: a caller that swapped name and value would otherwise leak the secret.
function checkedName(name: SecretName): SecretName {
  if (!isSecretName(name)) {
    throw new TypeError(
      'Unknown secret name (expected clientSecret, sandboxClientSecret, teamKey, teamDatabasePassword, lockSecretHash or webhookSecret:<subscription id>)',
    );
  }
  return name;
}

// ---- vault.json: sealed secrets --------------------------------------------------------------------

interface Sealer {
  /** Recorded in the file, so that one host does not mistake the other's vault for a corrupt one. */
  kind: 'safeStorage' | 'vault.key';
  seal(name: string, value: string): string;
  open(name: string, sealed: string): string;
  /** Why the file is unusable when `open` fails, completing "The vault file <path> …". */
  openFailure: string;
}

// Names are not restricted here: a newer version may keep secrets this one does not know; they are kept.
const VaultFileSchema = z.strictObject({
  version: z.literal(1),
  sealedWith: z.enum(['safeStorage', 'vault.key']),
  secrets: z.record(z.string(), z.string()),
});

function openSealedVault(protection: VaultProtection, file: string, sealer: Sealer): Vault {
  const secrets = readSealedFile(file, sealer);
  return createVault(protection, secrets, (next) => writeSealedFile(file, sealer, next));
}

function readSealedFile(file: string, sealer: Sealer): Map<string, string> {
  const text = readFileIfExists(file);
  if (text === undefined) return new Map();
  const parsed = parseVaultFile(text);
  if (!parsed)
    throw corruptVaultFile(file, 'is not a valid vault file (unreadable JSON or unexpected content)');
  if (parsed.sealedWith !== sealer.kind) {
    throw new VaultError(
      file,
      `The vault file ${file} was sealed with ${parsed.sealedWith}, but this host seals with ${sealer.kind}` +
        ' (the Electron app and browser mode cannot share a data directory). It was left untouched.',
    );
  }
  const secrets = new Map<string, string>();
  for (const [name, sealed] of Object.entries(parsed.secrets)) {
    try {
      secrets.set(name, sealer.open(name, sealed));
    } catch {
      throw corruptVaultFile(file, sealer.openFailure);
    }
  }
  return secrets;
}

function parseVaultFile(text: string): z.infer<typeof VaultFileSchema> | undefined {
  try {
    return VaultFileSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function writeSealedFile(file: string, sealer: Sealer, secrets: ReadonlyMap<string, string>): void {
  const sealed = Object.fromEntries([...secrets].map(([name, value]) => [name, sealer.seal(name, value)]));
  const body: z.infer<typeof VaultFileSchema> = { version: 1, sealedWith: sealer.kind, secrets: sealed };
  writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
}

function corruptVaultFile(file: string, why: string): VaultCorruptError {
  const keptAs = keepCorruptFileAside(file);
  return new VaultCorruptError(
    file,
    keptAs,
    `The vault file ${file} ${why}. It was kept as ${keptAs}; the secrets in it (and the data key of the ` +
      'journal) are not available, and the vault starts empty when opened again.',
  );
}

// ---- vault.key: the browser-mode key ----------------------------------------------------------------

function readKeyFile(keyFile: string, vaultFile: string): Buffer | undefined {
  let fd: number;
  try {
    // O_NOFOLLOW: a symbolic link planted at vault.key must not redirect us to another file.
    fd = fs.openSync(keyFile, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    if (errorCode(error) === 'ELOOP') {
      throw new VaultError(
        keyFile,
        `The vault key file ${keyFile} is a symbolic link; the vault refuses to use it.`,
      );
    }
    throw error;
  }
  let key: Buffer;
  try {
    assertPrivateKeyFile(keyFile, fs.fstatSync(fd));
    key = fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (key.length !== KEY_BYTES) throw corruptKeyFile(keyFile, vaultFile, key.length);
  return key;
}

function assertPrivateKeyFile(keyFile: string, stat: fs.Stats): void {
  if (!stat.isFile()) {
    throw new VaultError(
      keyFile,
      `The vault key file ${keyFile} is not a regular file; the vault refuses to use it.`,
    );
  }
  // Windows has no POSIX modes (files show as 0666); its ACLs are not checked here.
  if (process.platform === 'win32') return;
  const ownerId = process.getuid?.();
  if (ownerId !== undefined && stat.uid !== ownerId) {
    throw new VaultError(
      keyFile,
      `The vault key file ${keyFile} belongs to another user; the vault refuses to use it.`,
    );
  }
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new VaultError(
      keyFile,
      `The vault key file ${keyFile} can be accessed by other users (mode ${mode.toString(8).padStart(4, '0')}), ` +
        'and file permissions are its only protection, so the vault refuses to use it. If nobody else could ' +
        `have read it, restrict it with "chmod 600 ${keyFile}"; otherwise move it and ${VAULT_FILE} away and ` +
        'enter the secrets again.',
    );
  }
}

// A key of the wrong size cannot decrypt vault.json either, so both are kept aside together.
function corruptKeyFile(keyFile: string, vaultFile: string, size: number): VaultCorruptError {
  const keptAs = keepCorruptFileAside(keyFile);
  const vaultKeptAs = fs.existsSync(vaultFile) ? keepCorruptFileAside(vaultFile) : undefined;
  return new VaultCorruptError(
    keyFile,
    keptAs,
    `The vault key file ${keyFile} is not a key (${size} bytes instead of ${KEY_BYTES}). It was kept as ${keptAs}` +
      (vaultKeptAs ? `, and the vault file it protected as ${vaultKeptAs}` : '') +
      '; the vault starts empty when opened again.',
  );
}

function createKeyFile(keyFile: string): Buffer {
  const key = createFieldKey();
  let fd: number;
  try {
    // 'wx' is O_CREAT|O_EXCL: never reuse or overwrite a file someone else created, and 0600 from birth.
    fd = fs.openSync(keyFile, 'wx', 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') {
      const raced = readKeyFile(keyFile, path.join(path.dirname(keyFile), VAULT_FILE));
      if (raced) return raced;
    }
    throw error;
  }
  try {
    fs.writeFileSync(fd, key);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  syncDirectory(path.dirname(keyFile));
  return key;
}

/**
 * Opens a vault; when its file is corrupt, the opener has already kept it aside, so a second
 * open starts empty. The problem is reported, not thrown: Vetted starts and says what happened.
 */
export function openVaultRecovering(open: () => Vault, onProblem: (message: string) => void): Vault {
  try {
    return open();
  } catch (error) {
    if (!(error instanceof VaultCorruptError)) throw error;
    onProblem(error.message);
    return open();
  }
}
