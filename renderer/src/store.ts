import { create } from 'zustand';
import type { AppInfo } from '../../contract/channels.ts';
import { VettedError } from '../../contract/errors.ts';
import { api } from './api.ts';

type Connection = 'connecting' | 'connected' | 'unreachable';

interface AppState {
  info: AppInfo | null;
  connection: Connection;
  problem: string | null;
  load(): Promise<void>;
}

export const useAppStore = create<AppState>((set) => ({
  info: null,
  connection: 'connecting',
  problem: null,
  async load() {
    try {
      set({ info: await api.app.info(), connection: 'connected', problem: null });
    } catch (error) {
      set({
        connection: 'unreachable',
        problem: error instanceof VettedError ? error.message : 'Vetted could not start.',
      });
    }
  },
}));
