// Start-up under Electron decides which vault holds the secrets. With a real OS keyring it is the
// safeStorage vault, opened at once. Without one (Linux `basic_text`, or no encryption at all) it is the
// passphrase vault: the window shows the unlock screen, only the vault channels answer, and the desk is
// created once the reviewer has entered (or chosen) the passphrase. Plain Node: safeStorage is passed in.
import { channelNames } from '#contract/channels.ts';
import { DeskError } from '#contract/errors.ts';
import { type VAULT_CHANNELS, VaultErrorCode, type VaultState, type VaultStatus } from '#contract/vault.ts';
import type { Logger } from '../log/logger.ts';
import type { Handlers } from '../serve.ts';
import {
  createPassphraseVault,
  PassphraseError,
  passphraseVaultExists,
  type ScryptParams,
  unlockPassphraseVault,
} from './passphrase-vault.ts';
import {
  openElectronVault,
  openVaultRecovering,
  osKeychainProtects,
  type SafeStorageLike,
  type Vault,
  VaultError,
} from './vault.ts';

export const NO_KEYRING_REASON =
  'This computer has no keyring Vetted can use, so your secrets are sealed with your passphrase.';
const NEW_REASON = `${NO_KEYRING_REASON} Choose one now: Vetted asks for it each time it starts, and nobody can recover it for you.`;
const LOCKED_REASON = `${NO_KEYRING_REASON} Enter it to open your work.`;

export interface VaultGateOptions {
  dir: string;
  safeStorage: SafeStorageLike;
  log: Logger;
  /** Creates the desk with the opened vault; a vault channel answers `open` only once this has finished. */
  onOpen(vault: Vault, vaultProblem: string | null): Promise<void>;
  /** Tests only: cheaper derivation for a new vault. */
  scrypt?: ScryptParams;
}

export interface VaultGate {
  state(): VaultState;
  /** Every contract channel: the vault channels, and every other one refused in words while locked. */
  handlers: Handlers;
  /** With a keyring, opens the vault and runs `onOpen` now; without one, waits for the reviewer. */
  start(): Promise<void>;
}

/** True where only a passphrase can protect secrets at rest. */
export function needsPassphrase(safeStorage: SafeStorageLike): boolean {
  return !osKeychainProtects(safeStorage);
}

export function createVaultGate(options: VaultGateOptions): VaultGate {
  const { dir, log } = options;
  const keyring = !needsPassphrase(options.safeStorage);
  let state: VaultState = keyring ? 'open' : passphraseVaultExists(dir) ? 'locked' : 'new';
  // One attempt at a time: a second click while scrypt runs must not open (or create) a second vault.
  let attempt: Promise<VaultStatus> | null = null;

  const status = (): VaultStatus => ({
    state,
    reason: state === 'open' ? null : state === 'new' ? NEW_REASON : LOCKED_REASON,
  });

  const open = (expected: VaultState, openVault: () => Promise<Vault>): Promise<VaultStatus> => {
    if (state === 'open') return Promise.resolve(status());
    if (state !== expected) {
      throw new DeskError(
        VaultErrorCode.refused,
        state === 'new'
          ? 'There is no vault here yet: choose a passphrase.'
          : 'A vault already exists here: enter its passphrase.',
      );
    }
    if (attempt)
      throw new DeskError(VaultErrorCode.refused, 'Vetted is already opening the vault: wait a moment.');
    attempt = (async () => {
      try {
        const vault = await openVault().catch(refusedInWords);
        log.info('vault opened with the passphrase');
        // Open only once the desk answers: a renderer told `open` goes straight to the desk's channels.
        await options.onOpen(vault, null);
        state = 'open';
        return status();
      } finally {
        attempt = null;
      }
    })();
    return attempt;
  };

  const locked = () => {
    throw new DeskError(VaultErrorCode.locked, 'Vetted is locked: enter your passphrase first.');
  };
  // Typed as a whole after the vault channels replace the refusals, so their inputs and outputs are checked.
  const refusals = Object.fromEntries(
    channelNames.map((channel) => [channel, locked]),
  ) as unknown as Handlers;
  const handlers: Handlers = {
    ...refusals,
    'vault.status': () => status(),
    'vault.unlock': ({ passphrase }) => open('locked', () => unlockPassphraseVault({ dir, passphrase })),
    'vault.create': ({ passphrase }) =>
      open('new', () =>
        createPassphraseVault({ dir, passphrase, ...(options.scrypt ? { scrypt: options.scrypt } : {}) }),
      ),
  };

  return {
    state: () => state,
    handlers,
    async start() {
      if (!keyring) {
        log.warn('no OS keyring: the vault is sealed with a passphrase', { state });
        return;
      }
      let vaultProblem: string | null = null;
      const vault = openVaultRecovering(
        () => openElectronVault({ dir, safeStorage: options.safeStorage }),
        (problem) => {
          vaultProblem = problem;
          log.warn('vault problem', { problem });
        },
      );
      await options.onOpen(vault, vaultProblem);
    },
  };
}

/** Once the desk runs, the vault is open: the vault channels say so and change nothing. */
export const openVaultHandlers: Pick<Handlers, (typeof VAULT_CHANNELS)[number]> = {
  'vault.status': () => ({ state: 'open', reason: null }),
  'vault.unlock': () => ({ state: 'open', reason: null }),
  'vault.create': () => ({ state: 'open', reason: null }),
};

// The passphrase is in no message: a wrong one is refused with the same sentence whatever was typed.
function refusedInWords(error: unknown): never {
  if (error instanceof PassphraseError) {
    const code =
      error.problem === 'wrong-passphrase' ? VaultErrorCode.wrongPassphrase : VaultErrorCode.refused;
    throw new DeskError(code, error.message, { '/passphrase': error.message });
  }
  if (error instanceof VaultError) throw new DeskError(VaultErrorCode.refused, error.message);
  throw error;
}
