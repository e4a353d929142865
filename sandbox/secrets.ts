/**
 * Seals what the sandbox must not write in the clear: its client secret, the webhook
 * subscriptions' signing secrets, and customers' personal data (address, date of birth, SSN
 * digits, IP address). The desktop app passes a seal keyed by its vault; standalone and in
 * tests they are stored as they are.
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
