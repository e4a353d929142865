// The vault where no OS keyring protects secrets (Linux with safeStorage's `basic_text` backend): a random
// vault key seals every secret (the journal's data key among them) with AES-256-GCM, and is itself kept
// wrapped with a key derived from the reviewer's passphrase by scrypt. So secrets and personal data outlive
// a restart, and the passphrase is asked for at start. Plain Node: no Electron import.
import { randomBytes, scrypt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MIN_PASSPHRASE_LENGTH } from '#contract/vault.ts';
import { createFieldKey, decryptField, encryptField } from '../crypto.ts';
import { ensurePrivateDir, readFileIfExists, writeFileAtomic } from '../private-files.ts';
import { createVault, type Vault, VaultError } from './vault.ts';

export { MIN_PASSPHRASE_LENGTH };

/** Its own file: a `vault.json` sealed by safeStorage on a keyring session is left as it is. */
export const PASSPHRASE_VAULT_FILE = 'vault-passphrase.json';
export const WRONG_PASSPHRASE = 'That passphrase does not open this vault.';

export type ScryptParams = Record<'N' | 'r' | 'p', number>;

/**
 * N=2^15, r=8, p=1: 32 MiB and roughly 0.1 s per derivation on a laptop, paid once per start. That is
 * OWASP's minimum for scrypt and twice Node's default cost; stored in the file, so a later version can raise
 * it without stranding older vaults. p=1 because Node runs the derivation on one thread anyway.
 */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
// Bound what a file may ask for: a crafted file must not make start-up allocate gigabytes.
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;
// Decrypted with the derived key: if it opens, the passphrase is right, whatever else is wrong with the file.
const CHECK_TEXT = 'vetted-passphrase-check';
const AAD = { check: 'vault:passphrase-check', key: 'vault:key' } as const;

const isPowerOfTwo = (n: number) => Number.isInteger(Math.log2(n));

const ScryptParamsSchema = z
  .strictObject({
    name: z.literal('scrypt'),
    N: z.number().int().min(1024).refine(isPowerOfTwo, 'N must be a power of two'),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
    salt: z.base64(),
  })
  .refine(({ N, r }) => scryptMemory({ N, r, p: 1 }) <= MAX_SCRYPT_MEMORY, 'scrypt parameters too costly');

// Names are not restricted: a newer version may keep secrets this one does not know; they are kept.
const PassphraseVaultFileSchema = z.strictObject({
  version: z.literal(1),
  sealedWith: z.literal('passphrase'),
  kdf: ScryptParamsSchema,
  check: z.string(),
  vaultKey: z.string(),
  secrets: z.record(z.string(), z.string()),
});
type PassphraseVaultFile = z.infer<typeof PassphraseVaultFileSchema>;

export type PassphraseProblem = 'wrong-passphrase' | 'too-short' | 'exists' | 'missing';

const PASSPHRASE_PROBLEMS: Record<PassphraseProblem, string> = {
  'wrong-passphrase': WRONG_PASSPHRASE,
  'too-short': `Choose a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters.`,
  exists: 'A vault sealed with a passphrase already exists here: enter its passphrase instead.',
  missing: 'There is no vault to unlock here yet: choose a passphrase.',
};

/** A passphrase refused, in words the unlock screen shows as they are: never the passphrase itself. */
export class PassphraseError extends VaultError {
  override name = 'PassphraseError';
  readonly problem: PassphraseProblem;
  constructor(file: string, problem: PassphraseProblem) {
    super(file, PASSPHRASE_PROBLEMS[problem]);
    this.problem = problem;
  }
}

export function passphraseVaultFile(dir: string): string {
  return path.join(dir, PASSPHRASE_VAULT_FILE);
}

/** Whether a passphrase vault was created here (then the passphrase is asked for, else one is chosen). */
export function passphraseVaultExists(dir: string): boolean {
  return fs.existsSync(passphraseVaultFile(dir));
}

/** First run: a new vault key wrapped with the passphrase, written (0600, atomically) before returning. */
export async function createPassphraseVault(opts: {
  dir: string;
  passphrase: string;
  scrypt?: ScryptParams;
}): Promise<Vault> {
  const file = passphraseVaultFile(opts.dir);
  if ([...opts.passphrase].length < MIN_PASSPHRASE_LENGTH) {
    throw new PassphraseError(file, 'too-short');
  }
  ensurePrivateDir(opts.dir);
  if (passphraseVaultExists(opts.dir)) {
    throw new PassphraseError(file, 'exists');
  }
  const params = opts.scrypt ?? DEFAULT_SCRYPT;
  const salt = randomBytes(SALT_BYTES);
  const wrappingKey = await deriveKey(opts.passphrase, salt, params);
  const vaultKey = createFieldKey();
  let header: Omit<PassphraseVaultFile, 'secrets'>;
  try {
    header = {
      version: 1,
      sealedWith: 'passphrase',
      kdf: { name: 'scrypt', ...params, salt: salt.toString('base64') },
      check: encryptField(wrappingKey, CHECK_TEXT, AAD.check),
      vaultKey: encryptField(wrappingKey, vaultKey.toString('base64'), AAD.key),
    };
  } finally {
    wrappingKey.fill(0);
  }
  writeVaultFile(file, header, vaultKey, new Map());
  return createVault('passphrase', new Map(), (next) => writeVaultFile(file, header, vaultKey, next));
}

/**
 * Opens the vault with the parameters stored in its file. A wrong passphrase throws `PassphraseError`
 * ('wrong-passphrase') and touches nothing on disk; a file that cannot be read is left as it is.
 */
export async function unlockPassphraseVault(opts: { dir: string; passphrase: string }): Promise<Vault> {
  const file = passphraseVaultFile(opts.dir);
  const text = readFileIfExists(file);
  if (text === undefined) {
    throw new PassphraseError(file, 'missing');
  }
  const parsed = parseVaultFile(text);
  if (!parsed) {
    throw new VaultError(
      file,
      `The vault file ${file} is not a valid passphrase vault (unreadable JSON or unexpected content). ` +
        'It was left untouched; move it away to start with an empty vault.',
    );
  }
  const { N, r, p, salt } = parsed.kdf;
  const wrappingKey = await deriveKey(opts.passphrase, Buffer.from(salt, 'base64'), { N, r, p });
  let vaultKey: Buffer;
  try {
    if (!opens(() => decryptField(wrappingKey, parsed.check, AAD.check)))
      throw new PassphraseError(file, 'wrong-passphrase');
    vaultKey = Buffer.from(
      openOrAltered(file, () => decryptField(wrappingKey, parsed.vaultKey, AAD.key)),
      'base64',
    );
  } finally {
    wrappingKey.fill(0);
  }
  if (vaultKey.length !== KEY_BYTES) throw alteredFile(file);
  const secrets = new Map<string, string>();
  for (const [name, sealed] of Object.entries(parsed.secrets)) {
    secrets.set(
      name,
      openOrAltered(file, () => decryptField(vaultKey, sealed, `vault:${name}`)),
    );
  }
  const { secrets: _sealed, ...header } = parsed;
  return createVault('passphrase', secrets, (next) => writeVaultFile(file, header, vaultKey, next));
}

/**
 * Whether the passphrase opens the vault here, without opening it (the idle lock's unlock where the vault has
 * a passphrase): the check text decrypts with the key it derives. A missing or unreadable file never matches.
 */
export async function passphraseOpensVault(opts: { dir: string; passphrase: string }): Promise<boolean> {
  const text = readFileIfExists(passphraseVaultFile(opts.dir));
  const parsed = text === undefined ? undefined : parseVaultFile(text);
  if (!parsed) return false;
  const { N, r, p, salt } = parsed.kdf;
  const wrappingKey = await deriveKey(opts.passphrase, Buffer.from(salt, 'base64'), { N, r, p });
  try {
    return opens(() => decryptField(wrappingKey, parsed.check, AAD.check));
  } finally {
    wrappingKey.fill(0);
  }
}

function writeVaultFile(
  file: string,
  header: Omit<PassphraseVaultFile, 'secrets'>,
  vaultKey: Buffer,
  secrets: ReadonlyMap<string, string>,
): void {
  // The secret's name is bound as AAD, so sealed values cannot be swapped between names.
  const sealed = Object.fromEntries(
    [...secrets].map(([name, value]) => [name, encryptField(vaultKey, value, `vault:${name}`)]),
  );
  const body: PassphraseVaultFile = { ...header, secrets: sealed };
  writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
}

function parseVaultFile(text: string): PassphraseVaultFile | undefined {
  try {
    return PassphraseVaultFileSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function opens(decrypt: () => string): boolean {
  try {
    return decrypt() === CHECK_TEXT;
  } catch {
    return false;
  }
}

// The passphrase was right (the check opened), so a failure here means the file itself was altered.
function openOrAltered(file: string, decrypt: () => string): string {
  try {
    return decrypt();
  } catch {
    throw alteredFile(file);
  }
}

function alteredFile(file: string): VaultError {
  return new VaultError(
    file,
    `The vault file ${file} opens with this passphrase but its contents were altered; it was left untouched.`,
  );
}

function scryptMemory({ N, r }: ScryptParams): number {
  return 128 * N * r;
}

/**
 * The passphrase goes into a Buffer that is zeroed once the key is derived; the JS string it came from
 * cannot be wiped, only dropped. Normalized, so the same passphrase typed on another keyboard layout opens.
 */
function deriveKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const secret = Buffer.from(passphrase.normalize('NFC'), 'utf8');
  // Node refuses when 128·N·r reaches maxmem (32 MiB by default, exactly our default's need): leave headroom.
  const maxmem = 2 * scryptMemory(params) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_BYTES, { ...params, maxmem }, (error, key) => {
      secret.fill(0);
      if (error) reject(error);
      else resolve(key);
    });
  });
}
