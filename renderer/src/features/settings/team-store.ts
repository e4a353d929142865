import { create } from 'zustand';
import { type AppInfo, RESTART_BY_HAND } from '#contract/channels.ts';
import { VettedError } from '#contract/errors.ts';
import type { TeamHubState, TeamStatus, TeamStoreState } from '#contract/team.ts';
import { api } from '#renderer/api.ts';
import { askMain } from '#renderer/shared/data/ask-main.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

interface TeamState {
  status: TeamStatus | null;
  /** A join, a leave or a check is on its way to main. */
  busy: boolean;
  /** Main's refusal, in its words, when it is about no one field. */
  problem: string | null;
  /** Refusals about the join code or the password, shown beside that field. */
  fieldErrors: { code?: string; password?: string };
  load(): Promise<void>;
  watch(): () => void;
  join(code: string, password: string): Promise<boolean>;
  leave(): Promise<boolean>;
  /** Main checks the new database password against the store; a refusal is thrown, for the dialog to show. */
  changePassword(password: string): Promise<void>;
  /** Electron starts itself again (the window goes with it); browser mode refuses, in words. */
  restart(): Promise<boolean>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** "/code" → code: main reports fields as JSON pointers. */
function fieldErrorsOf(error: unknown): TeamState['fieldErrors'] {
  if (!(error instanceof VettedError)) return {};
  const { '/code': code, '/password': password } = error.fields;
  return { ...(code ? { code } : {}), ...(password ? { password } : {}) };
}

export const useTeamStore = create<TeamState>((set) => {
  const ask = (call: () => Promise<TeamStatus>): Promise<boolean> =>
    askMain(call, {
      busy: (on) => set(on ? { busy: true, problem: null, fieldErrors: {} } : { busy: false }),
      answered: (status) => set({ status }),
      refused(error) {
        const fieldErrors = fieldErrorsOf(error);
        set({ fieldErrors, problem: Object.keys(fieldErrors).length > 0 ? null : messageOf(error) });
      },
    });
  return {
    status: null,
    busy: false,
    problem: null,
    fieldErrors: {},
    load: async () => {
      await ask(() => api.team.status());
    },
    watch: sharedWatch(() => api.on('team.status', (status) => set({ status }))),
    join: (code, password) => ask(() => api.team.join({ code, password })),
    leave: () => ask(() => api.team.leave()),
    changePassword: async (password) => {
      set({ status: await api.team.password({ password }), problem: null });
    },
    restart: () =>
      askMain(() => api.app.restart(), {
        busy: (on) => set(on ? { busy: true, problem: null } : { busy: false }),
        answered: () => undefined,
        refused: (error) => set({ problem: messageOf(error) }),
      }),
  };
});

export const STORE_TEXT: Record<TeamStoreState, string> = {
  connected: 'Connected',
  unreachable: 'Unreachable',
  refused: 'Refused',
  'not-joined': 'Not joined',
};

export const HUB_TEXT: Record<TeamHubState, string> = {
  listening: 'A hub is listening for the team’s webhooks.',
  'no hub': 'No hub is running: webhooks reach the team only once your administrator starts one.',
  unknown: 'Unknown: the team store cannot say now.',
};

/**
 * What a restart changes, when this desk joined or left since it started; in browser mode also how to
 * restart (under Electron a button does it).
 */
export function restartNotice(status: TeamStatus, host: AppInfo['host'] | undefined): string | null {
  if (!status.restartNeeded) return null;
  const what =
    status.mode === 'team'
      ? 'Restart Vetted to work on the team store.'
      : 'Restart Vetted to work on this desk’s own journal again.';
  return host === 'browser' ? `${what} ${RESTART_BY_HAND}` : what;
}
