/**
 * Seals the secrets the sandbox writes to its data file: its client secret and the webhook
 * subscriptions' signing secrets. The desktop app passes its vault's sealing (the OS keychain);
 * standalone and in tests they are stored as they are.
 */
export interface SandboxSecrets {
  seal(plainText: string): string;
  /** Throws when the sealed text cannot be opened (another machine, another key). */
  open(sealed: string): string;
}

export const UNSEALED: SandboxSecrets = {
  seal: (plainText) => plainText,
  open: (sealed) => sealed,
};
