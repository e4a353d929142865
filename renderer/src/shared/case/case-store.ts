import { create } from 'zustand';
import type { StoredImage, StoredImageInfo, TimelineEntry } from '#contract/case.ts';
import { TIMELINE_PAGE } from '#contract/case.ts';
import { api } from '#renderer/api.ts';
import { copyText } from '../data/clipboard.ts';
import { sharedWatch } from '../data/watch.ts';

interface CaseState {
  /** The case on screen. */
  id: string | null;
  timeline: TimelineEntry[];
  /** How many entries are asked for: "Show older" asks for a page more. */
  limit: number;
  hasOlder: boolean;
  /** Images of documents uploaded from this desk, newest first. */
  images: StoredImageInfo[];
  problem: string | null;
  /** Said politely to screen readers (copied, note saved…), and shown. */
  announcement: string;
  open(id: string): Promise<void>;
  /** Reads the timeline and the stored images again (after a change to this case). */
  reload(): Promise<void>;
  showOlder(): Promise<void>;
  addNote(text: string): Promise<void>;
  copyId(): Promise<void>;
  announce(message: string): void;
  image(documentId: string): Promise<StoredImage>;
  purgeImage(documentId: string): Promise<void>;
  /** The case panel is on screen: changes main pushes for this customer keep it current. */
  watch(): () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useCaseStore = create<CaseState>((set, get) => {
  // The same words twice in a row would not be read again: the second time differs by a no-break space.
  const say = (text: string) =>
    set((state) => ({ announcement: state.announcement === text ? `${text}\u00a0` : text }));
  const load = async (id: string, limit: number) => {
    try {
      const [timeline, images] = await Promise.all([
        api.customers.timeline({ id, limit }),
        api.documents.stored({ customerId: id }),
      ]);
      // An answer for a case no longer on screen is dropped.
      if (get().id !== id) return;
      set({ timeline: timeline.entries, hasOlder: timeline.hasOlder, images, limit, problem: null });
    } catch (error) {
      if (get().id === id) set({ problem: `The timeline could not be loaded: ${messageOf(error)}` });
    }
  };
  return {
    id: null,
    timeline: [],
    limit: TIMELINE_PAGE,
    hasOlder: false,
    images: [],
    problem: null,
    announcement: '',
    async open(id) {
      if (get().id !== id) {
        set({
          id,
          timeline: [],
          images: [],
          hasOlder: false,
          limit: TIMELINE_PAGE,
          problem: null,
          announcement: '',
        });
      }
      await load(id, get().limit);
    },
    async reload() {
      const { id, limit } = get();
      if (id) await load(id, limit);
    },
    async showOlder() {
      const { id, limit } = get();
      if (id) await load(id, limit + TIMELINE_PAGE);
    },
    async addNote(text) {
      const { id } = get();
      if (!id) return;
      await api.notes.add({ customerId: id, text });
      say('Note saved.');
      await get().reload();
    },
    async copyId() {
      const { id } = get();
      if (!id) return;
      try {
        await copyText(id);
        say('Customer ID copied.');
      } catch (error) {
        say(`The customer ID could not be copied: ${messageOf(error)}`);
      }
    },
    announce: say,
    image: (documentId) => api.documents.image({ documentId }),
    async purgeImage(documentId) {
      await api.documents.purgeImage({ documentId });
      say('Stored image removed.');
      await get().reload();
    },
    // A change to the customer, or an event about it (which may change nothing else), is a new entry.
    watch: sharedWatch(() => [
      api.on('customer.updated', (row) => {
        if (row.id === get().id) void get().reload();
      }),
      api.on('event.received', (event) => {
        if (event.customerId !== null && event.customerId === get().id) void get().reload();
      }),
    ]),
  };
});
