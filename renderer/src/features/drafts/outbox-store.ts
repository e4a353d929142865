import { create } from 'zustand';
import type { OutboxStatus, SubmitResult } from '#contract/drafts.ts';
import type { QueueRow } from '#contract/queue.ts';
import { api } from '#renderer/api.ts';
import { count } from '#renderer/shared/case/draft-states.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

/** The most `drafts.submit` takes at once. */
const SUBMIT_BATCH = 5000;
/** The drafts listed beside the form; the queue's Drafts section lists them all. */
export const LISTED_DRAFTS = 200;

interface OutboxState {
  status: OutboxStatus | null;
  /** Drafts not yet created, oldest first (the queue's Drafts section). */
  drafts: QueueRow[];
  total: number;
  submitting: boolean;
  notice: string | null;
  problem: string | null;
  /** The outbox panel is on screen: only then do pushed changes reload it. Returns the function that stops watching. */
  watch(): () => void;
  load(): void;
  submitAll(): Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function submitNotice(result: SubmitResult): string {
  const parts = result.queued.length > 0 ? [`Queued ${count(result.queued.length, 'draft')}.`] : [];
  if (result.invalid.length > 0) {
    const n = result.invalid.length;
    parts.push(
      `${count(n, 'draft')} ${n === 1 ? 'needs' : 'need'} correction first: open ${n === 1 ? 'it' : 'them'} to see what.`,
    );
  }
  if (result.skipped.length > 0) {
    parts.push(`${count(result.skipped.length, 'draft')} could not be submitted now.`);
  }
  return parts.join(' ');
}

export const useOutboxStore = create<OutboxState>((set, get) => {
  // Pushed changes can come by the hundred (Submit all): one load at a time, then one more.
  let loading = false;
  let again = false;

  const load = async () => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      const [status, window] = await Promise.all([
        api.outbox.status(),
        api.queue.window({ section: 'drafts', search: '', offset: 0, limit: LISTED_DRAFTS }),
      ]);
      set({ status, drafts: window.rows, total: window.total, problem: null });
    } catch (error) {
      set({ problem: `The outbox could not be read: ${messageOf(error)}` });
    } finally {
      loading = false;
      if (again) {
        again = false;
        void load();
      }
    }
  };

  return {
    status: null,
    drafts: [],
    total: 0,
    submitting: false,
    notice: null,
    problem: null,
    watch: sharedWatch(() => {
      void load();
      return [
        api.on('draft.updated', () => void load()),
        api.on('draft.discarded', () => void load()),
        api.on('service.status', () => void load()),
      ];
    }),
    load: () => void load(),
    async submitAll() {
      set({ submitting: true, notice: null, problem: null });
      try {
        const { drafts } = await api.drafts.list();
        const ready = drafts.filter((draft) => draft.actions.submit).map((draft) => draft.id);
        if (ready.length === 0) {
          set({ notice: 'No draft is ready to submit.' });
          return;
        }
        const total: SubmitResult = { queued: [], invalid: [], skipped: [] };
        for (let at = 0; at < ready.length; at += SUBMIT_BATCH) {
          const result = await api.drafts.submit({ ids: ready.slice(at, at + SUBMIT_BATCH) });
          total.queued.push(...result.queued);
          total.invalid.push(...result.invalid);
          total.skipped.push(...result.skipped);
        }
        set({ notice: submitNotice(total) });
      } catch (error) {
        set({ problem: `Submit all failed: ${messageOf(error)}` });
      } finally {
        set({ submitting: false });
        get().load();
      }
    },
  };
});
