// The embedded sandbox keeps its own secrets in its data file: sealed with the vault's data key, never plain.
// Shared by the desk and the hub, which both may run the built-in sandbox.

import { decryptField, encryptField } from '#main/ground/crypto.ts';
import type { Vault } from '#main/ground/vault/vault.ts';
import type { SandboxSecrets } from '#sandbox/index.ts';

const AAD = 'vetted:sandbox-secret';

export function sealedWith(vault: Pick<Vault, 'dataKey'>): SandboxSecrets {
  const key = vault.dataKey();
  return {
    seal: (plainText) => encryptField(key, plainText, AAD),
    open: (sealed) => decryptField(key, sealed, AAD),
  };
}
