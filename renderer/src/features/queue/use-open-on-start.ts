import { useEffect } from 'react';
import type { QueueRow } from '#contract/queue.ts';
import { indexOfRow, type Pages } from '#renderer/shared/windowed/windowed-pages.ts';
import { useAppStore } from '#renderer/store.ts';
import { useQueueStore } from './queue-store.ts';

const LAST_CASE_KEY = 'vetted.queue.lastCase';

/** The case to open when the queue shows with none: the last one looked at if the list holds it, else the first. */
export function caseToOpen(pages: Pages<QueueRow>, lastCase: string | null): string | null {
  if (lastCase && indexOfRow(pages, lastCase) >= 0) return lastCase;
  const offsets = [...pages.keys()].sort((a, b) => a - b);
  for (const offset of offsets) {
    // A draft opens in the form, not in the case pane: it is never opened for the reviewer.
    const row = pages.get(offset)?.rows.find((candidate) => candidate.section !== 'drafts');
    if (row) return row.id;
  }
  return null;
}

/**
 * The case pane is never an empty half screen while the list has cases: with no case in the address, the
 * last case looked at on this computer opens (if the list holds it), else the list's first. In place of the
 * address, not after it, so that Back does not return to the empty pane; and once the rows are painted,
 * so that they do not wait for the case (bench/start-up.ts). Every case opened is remembered.
 */
export function useOpenOnStart(): void {
  const customerId = useAppStore((state) => state.customerId);
  const pages = useQueueStore((state) => state.pages);
  useEffect(() => {
    if (customerId) {
      localStorage.setItem(LAST_CASE_KEY, customerId);
      return;
    }
    const pick = caseToOpen(pages, localStorage.getItem(LAST_CASE_KEY));
    if (!pick) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the next frame is painted: a frame, then a task.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (useAppStore.getState().customerId) return;
        const { navigate } = useAppStore.getState();
        navigate(
          { view: 'queue', section: useQueueStore.getState().section, customerId: pick },
          { replace: true },
        );
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [customerId, pages]);
}
