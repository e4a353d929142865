import type { CustomerForm } from '#contract/drafts.ts';

export type SaveState =
  | { kind: 'unsaved' }
  /** Typed, not saved yet: the save waits for a pause. */
  | { kind: 'pending' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'failed'; message: string };

export interface AutosaverOptions {
  /** The draft being edited; null for a new form, which becomes a draft at its first save. */
  id: string | null;
  delayMs: number;
  /** Makes the draft for a new form: its id. */
  create(): Promise<string>;
  /** Saves the form; when it was saved. */
  save(id: string, form: CustomerForm): Promise<string>;
  onState(state: SaveState): void;
}

export interface Autosaver {
  /** The reviewer typed: the form is saved once they pause. */
  schedule(form: CustomerForm): void;
  /** Saves what is pending now; the draft's id once everything typed is saved (null: nothing ever was). */
  flush(): Promise<string | null>;
  /** What is pending is dropped (the draft is being discarded). */
  cancel(): void;
  id(): string | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Debounced saves of a draft, one request at a time and always of the latest form: a save that
 * finishes after a newer change is followed by one more. A new form is created on its first save,
 * so a "New customer" left untouched leaves no draft behind.
 */
export function createAutosaver(options: AutosaverOptions): Autosaver {
  let id = options.id;
  let pending: CustomerForm | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;

  const saveAll = async () => {
    while (pending) {
      const form = pending;
      pending = null;
      options.onState({ kind: 'saving' });
      try {
        id ??= await options.create();
        const at = await options.save(id, form);
        // "Saved" only once nothing typed is left to save.
        if (!pending) options.onState({ kind: 'saved', at });
      } catch (error) {
        // Kept for the next change or flush, unless a newer form has replaced it meanwhile.
        pending ??= form;
        options.onState({ kind: 'failed', message: messageOf(error) });
        throw error;
      }
    }
  };
  const start = () => {
    clearTimeout(timer);
    timer = undefined;
    running ??= saveAll().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    schedule(form) {
      pending = form;
      options.onState({ kind: 'pending' });
      clearTimeout(timer);
      timer = setTimeout(() => void start().catch(() => {}), options.delayMs);
    },
    async flush() {
      while (pending || running) await start();
      return id;
    },
    cancel() {
      clearTimeout(timer);
      pending = null;
    },
    id: () => id,
  };
}
