import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '#main/data/journal/index.ts';
import {
  createPassphraseVault,
  DEFAULT_SCRYPT,
  PASSPHRASE_VAULT_FILE,
  PassphraseError,
  passphraseVaultExists,
  unlockPassphraseVault,
  WRONG_PASSPHRASE,
} from '#main/ground/vault/passphrase-vault.ts';
import { describeProtection, type Vault } from '#main/ground/vault/vault.ts';
// Its temporary directories are removed after each test.
import { serviceCustomer, tempDir } from '#test/main/data/journal/helpers.ts';

const PASSPHRASE = 'correct horse battery staple';
const CLIENT_SECRET = 'cs_live_9f8e7d6c5b4a39281706';
const PERSONAL = {
  address: { address1: '12 Quay Street', city: 'Des Moines', state: 'IA', postalCode: '50309' },
  dateOfBirth: '1984-07-21',
  ssnLastFour: '4821',
};
// Cheaper than the default, to keep the suite quick; also shows that the stored parameters are the ones used.
const LIGHT = { N: 2 ** 14, r: 8, p: 1 };

const vaultFile = (dir: string) => path.join(dir, PASSPHRASE_VAULT_FILE);
const readJson = (dir: string) => JSON.parse(fs.readFileSync(vaultFile(dir), 'utf8'));

async function refusal(promise: Promise<unknown>): Promise<PassphraseError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PassphraseError);
  return error as PassphraseError;
}

/** Journals personal data sealed with the vault's data key, as the desk does, then closes the journal. */
async function journalPersonalData(dir: string, vault: Vault): Promise<void> {
  const journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: vault.dataKey() });
  try {
    await journal.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'poll' });
    await journal.customers.setPersonal('c-1', PERSONAL);
  } finally {
    await journal.close();
  }
}

async function readPersonalData(dir: string, vault: Vault) {
  const journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: vault.dataKey() });
  try {
    return await journal.customers.personal('c-1');
  } finally {
    await journal.close();
  }
}

describe('passphrase vault', () => {
  it('keeps secrets and journaled personal data across two restarts with the same passphrase', async () => {
    const dir = tempDir();
    expect(passphraseVaultExists(dir)).toBe(false);
    const created = await createPassphraseVault({ dir, passphrase: PASSPHRASE });
    expect(created.protection).toBe('passphrase');
    created.set('clientSecret', CLIENT_SECRET);
    await journalPersonalData(dir, created);
    const dataKey = created.dataKey();

    for (const restart of [1, 2]) {
      const reopened = await unlockPassphraseVault({ dir, passphrase: PASSPHRASE });
      expect(reopened.get('clientSecret'), `restart ${restart}`).toBe(CLIENT_SECRET);
      expect(reopened.dataKey().equals(dataKey), `restart ${restart}`).toBe(true);
      expect(await readPersonalData(dir, reopened), `restart ${restart}`).toEqual(PERSONAL);
    }
    expect(passphraseVaultExists(dir)).toBe(true);
    expect(fs.statSync(vaultFile(dir)).mode & 0o777).toBe(0o600);
    expect(describeProtection('passphrase')).toMatch(/passphrase/);
  });

  it('refuses a wrong passphrase in words and changes nothing on disk', async () => {
    const dir = tempDir();
    const vault = await createPassphraseVault({ dir, passphrase: PASSPHRASE, scrypt: LIGHT });
    vault.set('clientSecret', CLIENT_SECRET);
    const before = fs.readFileSync(vaultFile(dir));
    const listing = fs.readdirSync(dir).sort();

    const error = await refusal(unlockPassphraseVault({ dir, passphrase: 'correct horse battery stapler' }));
    expect(error.problem).toBe('wrong-passphrase');
    expect(error.message).toBe(WRONG_PASSPHRASE);
    expect(error.message).not.toContain('stapler');
    expect(fs.readFileSync(vaultFile(dir)).equals(before)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(listing);
    expect((await unlockPassphraseVault({ dir, passphrase: PASSPHRASE })).get('clientSecret')).toBe(
      CLIENT_SECRET,
    );
  });

  it('writes no secret, data key, vault key or passphrase in plaintext', async () => {
    const dir = tempDir();
    const vault = await createPassphraseVault({ dir, passphrase: PASSPHRASE, scrypt: LIGHT });
    vault.set('clientSecret', CLIENT_SECRET);
    vault.set('webhookSecret:sub-42', 'whsec_Zq3mV8xLk2Pn7Rt5');
    const dataKey = vault.dataKey();
    const bytes = fs.readFileSync(vaultFile(dir));
    for (const secret of [CLIENT_SECRET, 'whsec_Zq3mV8xLk2Pn7Rt5', PASSPHRASE, dataKey]) {
      const raw = Buffer.from(secret);
      for (const encoded of [raw, raw.toString('base64'), raw.toString('base64url'), raw.toString('hex')]) {
        expect(bytes.includes(encoded)).toBe(false);
      }
    }
    expect(readJson(dir).kdf).toMatchObject({ name: 'scrypt', ...LIGHT });
  });

  it('derives with the parameters stored in the file, not the defaults', async () => {
    const dir = tempDir();
    (await createPassphraseVault({ dir, passphrase: PASSPHRASE, scrypt: LIGHT })).set(
      'clientSecret',
      CLIENT_SECRET,
    );
    expect(LIGHT.N).not.toBe(DEFAULT_SCRYPT.N);
    expect((await unlockPassphraseVault({ dir, passphrase: PASSPHRASE })).get('clientSecret')).toBe(
      CLIENT_SECRET,
    );
    // Other parameters in the file derive another key: the right passphrase no longer opens it.
    const file = readJson(dir);
    fs.writeFileSync(vaultFile(dir), JSON.stringify({ ...file, kdf: { ...file.kdf, N: 2 ** 13 } }));
    expect((await refusal(unlockPassphraseVault({ dir, passphrase: PASSPHRASE }))).problem).toBe(
      'wrong-passphrase',
    );
  });

  it('asks for a long enough passphrase and never overwrites an existing vault', async () => {
    const dir = tempDir();
    const short = await refusal(createPassphraseVault({ dir, passphrase: 'short', scrypt: LIGHT }));
    expect(short.problem).toBe('too-short');
    expect(short.message).toMatch(/at least 12 characters/);
    expect(passphraseVaultExists(dir)).toBe(false);
    expect((await refusal(unlockPassphraseVault({ dir, passphrase: PASSPHRASE }))).problem).toBe('missing');

    await createPassphraseVault({ dir, passphrase: PASSPHRASE, scrypt: LIGHT });
    const before = fs.readFileSync(vaultFile(dir));
    const again = await refusal(
      createPassphraseVault({ dir, passphrase: 'another passphrase!', scrypt: LIGHT }),
    );
    expect(again.problem).toBe('exists');
    expect(fs.readFileSync(vaultFile(dir)).equals(before)).toBe(true);
  });

  it('leaves a file that is not a vault, or was altered, untouched and says so', async () => {
    const dir = tempDir();
    fs.writeFileSync(vaultFile(dir), '{"version": 1');
    await expect(unlockPassphraseVault({ dir, passphrase: PASSPHRASE })).rejects.toThrow(
      /not a valid passphrase vault.*left untouched/,
    );
    expect(fs.readFileSync(vaultFile(dir), 'utf8')).toBe('{"version": 1');

    fs.rmSync(vaultFile(dir));
    (await createPassphraseVault({ dir, passphrase: PASSPHRASE, scrypt: LIGHT })).set('clientSecret', 'x');
    const file = readJson(dir);
    file.secrets.sandboxClientSecret = file.secrets.clientSecret;
    fs.writeFileSync(vaultFile(dir), JSON.stringify(file));
    await expect(unlockPassphraseVault({ dir, passphrase: PASSPHRASE })).rejects.toThrow(/altered/);
  });

  it('refuses stored parameters that would make start-up allocate too much memory', async () => {
    const dir = tempDir();
    await createPassphraseVault({ dir, passphrase: PASSPHRASE, scrypt: LIGHT });
    const file = readJson(dir);
    fs.writeFileSync(vaultFile(dir), JSON.stringify({ ...file, kdf: { ...file.kdf, N: 2 ** 24 } }));
    await expect(unlockPassphraseVault({ dir, passphrase: PASSPHRASE })).rejects.toThrow(
      /not a valid passphrase vault/,
    );
  });
});
