import { createStore, type StoreApi } from 'zustand';
import type { CustomerForm, DraftStatus, DraftView, SubmitResult } from '#contract/drafts.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';
import { type Autosaver, createAutosaver, type SaveState } from './autosave.ts';

/** A pause in typing this long saves the draft. */
export const AUTOSAVE_DELAY_MS = 600;

export interface DraftSessionState {
  /** The draft this form opens; null for a new customer's empty form (a draft from its first save). */
  draftId: string | null;
  /** The draft as it was left, once main has answered; null for a new form. */
  opened: DraftView | null;
  /** Why the draft could not be opened. */
  openProblem: string | null;
  /** Where the draft stands (main pushes its changes); null for a new form not saved yet. */
  status: DraftStatus | null;
  saveState: SaveState;
  /** Main discarded the draft (here, or elsewhere): the form has nothing left to edit. */
  discarded: boolean;
  saver: Autosaver;
  open(): Promise<void>;
  /** The form is on screen: main's pushes for this draft keep it current. Returns the function that stops. */
  watch(): () => void;
  submit(id: string): Promise<SubmitResult>;
  tryAgain(id: string): Promise<unknown>;
  linkDuplicate(id: string): Promise<unknown>;
  /** Discards the draft, once the reviewer confirmed; what is still waiting to be saved is dropped. */
  discard(): Promise<void>;
}

export type DraftSession = StoreApi<DraftSessionState>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One opening of the draft form: each opening is a fresh session, even of the same draft, so that
 * nothing typed in one form leaks into the next. The form's fields live in the form; the session
 * holds where the draft stands and talks to main.
 */
export function createDraftSession(draftId: string | null): DraftSession {
  return createStore<DraftSessionState>()((set, get) => ({
    draftId,
    opened: null,
    openProblem: null,
    status: null,
    saveState: { kind: 'unsaved' },
    discarded: false,
    saver: createAutosaver({
      id: draftId,
      delayMs: AUTOSAVE_DELAY_MS,
      async create() {
        const draft = await api.drafts.create();
        set({ status: draft });
        return draft.id;
      },
      save: async (id, form: CustomerForm) => (await api.drafts.save({ id, form })).savedAt,
      onState: (saveState) => set({ saveState }),
    }),
    async open() {
      if (!draftId) return;
      try {
        const opened = await api.drafts.get({ id: draftId });
        set({ opened, status: opened, saveState: { kind: 'saved', at: opened.updated } });
      } catch (error) {
        set({ openProblem: `This draft could not be opened: ${messageOf(error)}` });
      }
    },
    watch: sharedWatch(() => [
      api.on('draft.updated', (draft) => {
        if (draft.id === get().saver.id()) set({ status: draft });
      }),
      api.on('draft.discarded', ({ id }) => {
        if (id === get().saver.id()) set({ discarded: true });
      }),
    ]),
    submit: (id) => api.drafts.submit({ ids: [id] }),
    tryAgain: (id) => api.drafts.tryAgain({ id }),
    linkDuplicate: (id) => api.drafts.linkDuplicate({ id }),
    async discard() {
      const { saver } = get();
      const id = saver.id();
      if (id) await api.drafts.discard({ id, confirmed: true });
      saver.cancel();
      set({ discarded: true });
    },
  }));
}
