import { useEffect, useRef } from 'react';
import { indexOfRow } from '#renderer/shared/windowed/windowed-pages.ts';
import { useAppStore } from '#renderer/store.ts';
import { useQueueStore } from './queue-store.ts';

/**
 * The address and the queue agree: an address (a deep link, back, forward) sets the section and the
 * selected case; a move through the list (j/k, a click) gives the case its address, so the case panel
 * follows and the history holds every case the reviewer went through.
 */
export function useRouteSync(): void {
  const section = useAppStore((state) => state.section);
  const customerId = useAppStore((state) => state.customerId);
  const selectedId = useQueueStore((state) => state.selectedId);
  const selectionPending = useQueueStore((state) => state.selectionPending);
  const routed = useRef(false);

  useEffect(() => {
    useQueueStore.getState().setSection(section);
  }, [section]);

  useEffect(() => {
    if (!customerId) return;
    const queue = useQueueStore.getState();
    if (queue.selectedId === customerId) return;
    const at = indexOfRow(queue.pages, customerId);
    queue.select(customerId, at >= 0 ? at : queue.cursor);
  }, [customerId]);

  useEffect(() => {
    // The first render follows the address (a deep link), not the selection a reload remembered.
    if (!routed.current) {
      routed.current = true;
      return;
    }
    if (!selectedId || selectionPending || selectedId === useAppStore.getState().customerId) return;
    const row = useQueueStore.getState().selectedRow();
    if (row?.section === 'drafts') return;
    const { navigate } = useAppStore.getState();
    navigate({ view: 'queue', section: useQueueStore.getState().section, customerId: selectedId });
  }, [selectedId, selectionPending]);
}
