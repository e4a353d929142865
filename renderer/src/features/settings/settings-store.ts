import { create } from 'zustand';
import { VettedError } from '#contract/errors.ts';
import type { ConnectionTest, SettingsPatch, SettingsView } from '#contract/settings.ts';
import { api } from '#renderer/api.ts';

interface SettingsState {
  settings: SettingsView | null;
  saving: boolean;
  testing: boolean;
  /** Field messages from main, keyed by field name. */
  fieldErrors: Record<string, string>;
  message: { kind: 'saved' | 'error'; text: string } | null;
  test: ConnectionTest | null;
  load(): Promise<void>;
  save(patch: SettingsPatch): Promise<boolean>;
  testConnection(): Promise<void>;
}

/** "/baseUrl" or "baseUrl" → "baseUrl": main reports JSON pointers or names. */
const fieldName = (key: string) => key.replace(/^\//, '').split(/[/.]/)[0] ?? key;

export const useSettingsStore = create<SettingsState>((set) => ({
  settings: null,
  saving: false,
  testing: false,
  fieldErrors: {},
  message: null,
  test: null,
  async load() {
    set({ settings: await api.settings.get() });
  },
  async save(patch) {
    set({ saving: true, message: null, fieldErrors: {}, test: null });
    try {
      const settings = await api.settings.update(patch);
      set({ settings, message: { kind: 'saved', text: 'Settings saved.' } });
      return true;
    } catch (error) {
      const fields = error instanceof VettedError ? error.fields : {};
      set({
        fieldErrors: Object.fromEntries(Object.entries(fields).map(([key, text]) => [fieldName(key), text])),
        message: {
          kind: 'error',
          text: error instanceof Error ? error.message : 'The settings were not saved.',
        },
      });
      return false;
    } finally {
      set({ saving: false });
    }
  },
  async testConnection() {
    set({ testing: true, test: null });
    try {
      set({ test: await api.service.test() });
    } catch (error) {
      set({
        test: {
          ok: false,
          reason: 'unexpected',
          message: error instanceof Error ? error.message : String(error),
        },
      });
    } finally {
      set({ testing: false });
    }
  },
}));
