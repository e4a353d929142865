// What opens a locked desk: the vault's passphrase where the vault has one (the reviewer already knows it, and
// it is asked at every start), otherwise a secret the reviewer sets when arming the lock, kept in the vault
// only as a slow hash. Neither is ever kept, logged or echoed.
import { DeskError } from '#contract/errors.ts';
import { LockErrorCode } from '#contract/lock.ts';
import {
  hashLockSecret,
  LOCK_SCRYPT,
  type LockScrypt,
  verifyLockSecret,
} from '#main/ground/lock/lock-secret.ts';
import { passphraseOpensVault } from '#main/ground/vault/passphrase-vault.ts';
import type { Vault } from '#main/ground/vault/vault.ts';

export type DeskSecretKind = 'vault-passphrase' | 'lock-secret' | 'none';

export interface DeskSecret {
  kind(): DeskSecretKind;
  verify(secret: string): Promise<boolean>;
  /** Sets (or, with the one before, changes) the lock secret; refused where the vault's passphrase unlocks. */
  set(secret: string, current: string | undefined): Promise<void>;
}

const HASH = 'lockSecretHash';

export function deskSecret(options: { vault: Vault; dataDir: string; cost?: LockScrypt }): DeskSecret {
  const { vault, dataDir } = options;
  const kind = (): DeskSecretKind =>
    vault.protection === 'passphrase' ? 'vault-passphrase' : vault.has(HASH) ? 'lock-secret' : 'none';
  const stored = (): unknown => {
    try {
      return JSON.parse(vault.get(HASH) ?? 'null');
    } catch {
      return null;
    }
  };
  const verify = async (secret: string): Promise<boolean> => {
    switch (kind()) {
      case 'vault-passphrase':
        return passphraseOpensVault({ dir: dataDir, passphrase: secret });
      case 'lock-secret':
        return verifyLockSecret(secret, stored());
      case 'none':
        return false;
    }
  };
  return {
    kind,
    verify,
    async set(secret, current) {
      if (kind() === 'vault-passphrase') {
        throw new DeskError(
          LockErrorCode.refused,
          'This desk unlocks with the vault’s passphrase: there is no other secret to set.',
        );
      }
      if (kind() === 'lock-secret' && !(current !== undefined && (await verify(current)))) {
        const words = 'Enter the desk’s current secret to change it.';
        throw new DeskError(LockErrorCode.wrongSecret, words, { '/current': words });
      }
      const hash = await hashLockSecret(secret, options.cost ?? LOCK_SCRYPT);
      vault.set(HASH, JSON.stringify(hash));
    },
  };
}
