import { create } from 'zustand';
import { VettedError } from '#contract/errors.ts';
import { MIN_PASSPHRASE_LENGTH, type VaultStatus } from '#contract/vault.ts';
import { api } from '#renderer/api.ts';

type Field = 'passphrase' | 'confirmation';

interface VaultStoreState {
  /** null until main has answered: nothing is shown before, neither the desk nor the unlock screen. */
  status: VaultStatus | null;
  busy: boolean;
  /** Announced on the unlock screen, in main's words when main refused. */
  error: string | null;
  fieldErrors: Partial<Record<Field, string>>;
  load(): Promise<void>;
  unlock(passphrase: string): Promise<boolean>;
  create(passphrase: string, confirmation: string): Promise<boolean>;
}

// The passphrase is never kept here: it passes through to main and is dropped.
export const useVaultStore = create<VaultStoreState>((set, get) => {
  const submit = async (call: () => Promise<VaultStatus>): Promise<boolean> => {
    if (get().busy) return false;
    set({ busy: true, error: null, fieldErrors: {} });
    try {
      set({ status: await call() });
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The vault could not be opened.';
      const field = error instanceof VettedError ? error.fields['/passphrase'] : undefined;
      set({ error: message, fieldErrors: field ? { passphrase: field } : {} });
      return false;
    } finally {
      set({ busy: false });
    }
  };
  let loading: Promise<void> | null = null;
  return {
    status: null,
    busy: false,
    error: null,
    fieldErrors: {},
    load() {
      // Asked at boot and again by the gate's first render: one question to main while it is open.
      loading ??= (async () => {
        try {
          set({ status: await api.vault.status() });
        } catch (error) {
          set({
            error: error instanceof Error ? error.message : 'Vetted could not tell whether it is locked.',
          });
        } finally {
          loading = null;
        }
      })();
      return loading;
    },
    unlock: (passphrase) => submit(() => api.vault.unlock({ passphrase })),
    async create(passphrase, confirmation) {
      // Checked here first so that a typo is caught before main spends a second deriving a key.
      if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) {
        const text = `Choose a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters.`;
        set({ error: text, fieldErrors: { passphrase: text } });
        return false;
      }
      if (passphrase !== confirmation) {
        const text = 'The two passphrases are not the same.';
        set({ error: text, fieldErrors: { confirmation: text } });
        return false;
      }
      return submit(() => api.vault.create({ passphrase }));
    },
  };
});
