import { z } from 'zod';

/** Counted in characters; main refuses a shorter one too (`main/passphrase-vault.ts`). */
export const MIN_PASSPHRASE_LENGTH = 12;

/**
 * Where no OS keyring can protect secrets, the vault is sealed with a passphrase and Vetted starts
 * locked: `new` (choose a passphrase), `locked` (enter it), `open` (the desk is running).
 */
export const VaultStateSchema = z.enum(['new', 'locked', 'open']);
export type VaultState = z.infer<typeof VaultStateSchema>;

export const VaultStatusSchema = z.object({
  state: VaultStateSchema,
  /** Why a passphrase is asked for, in a sentence for the unlock screen; null when open. */
  reason: z.string().nullable(),
});
export type VaultStatus = z.infer<typeof VaultStatusSchema>;

// Never logged, never echoed back: the output is only the vault's state.
const passphrase = z.string().max(1024, 'A passphrase can be at most 1024 characters long.');

export const vaultChannels = {
  'vault.status': { input: z.undefined(), output: VaultStatusSchema },
  'vault.unlock': {
    input: z.strictObject({ passphrase: passphrase.min(1, 'Enter your passphrase.') }),
    output: VaultStatusSchema,
  },
  'vault.create': {
    input: z.strictObject({
      passphrase: passphrase.min(
        MIN_PASSPHRASE_LENGTH,
        `Choose a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters.`,
      ),
    }),
    output: VaultStatusSchema,
  },
} as const;

/** The only channels main answers while the vault is locked. */
export const VAULT_CHANNELS = Object.keys(vaultChannels) as Array<keyof typeof vaultChannels>;

/** Codes of the typed errors the vault channels fail with. */
export const VaultErrorCode = {
  wrongPassphrase: 'WrongPassphrase',
  locked: 'VaultLocked',
  refused: 'VaultRefused',
} as const;
