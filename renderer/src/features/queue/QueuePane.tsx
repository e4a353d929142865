import { RefreshCw } from 'lucide-react';
import { type RefObject, useEffect } from 'react';
import type { QueueRow } from '#contract/queue.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { QueueGrid } from './QueueGrid.tsx';
import { useQueueStore } from './queue-store.ts';

interface QueuePaneProps {
  gridRef: RefObject<HTMLTableElement | null>;
  onPick(row: QueueRow): void;
  onRowsPainted(): void;
}

/**
 * The left side of the split view. While the pointer is over the list or the keyboard is in it, the
 * reviewer is at work there: live updates that would move rows wait, and a button offers them.
 */
export function QueuePane({ gridRef, onPick, onRowsPainted }: QueuePaneProps) {
  const pendingUpdates = useQueueStore((state) => state.pendingUpdates);
  const { setInteracting, applyUpdates } = useQueueStore.getState();
  useEffect(() => {
    // The grid, not the whole pane: a click on a section or a filter is not work on the rows.
    const pane = gridRef.current;
    if (!pane) return;
    const where = { pointer: false, focus: false };
    const report = (change: Partial<typeof where>) => () => {
      Object.assign(where, change);
      setInteracting(where.pointer || where.focus);
    };
    const leaving = (event: FocusEvent) => {
      if (!pane.contains(event.relatedTarget as Node | null)) report({ focus: false })();
    };
    const listeners: [string, EventListener][] = [
      ['pointerenter', report({ pointer: true })],
      ['pointerleave', report({ pointer: false })],
      ['focusin', report({ focus: true })],
      ['focusout', leaving as EventListener],
    ];
    for (const [name, listener] of listeners) pane.addEventListener(name, listener);
    return () => {
      for (const [name, listener] of listeners) pane.removeEventListener(name, listener);
      setInteracting(false);
    };
  }, [gridRef, setInteracting]);
  return (
    <div className="queue-pane">
      <div className="queue-updates" aria-live="polite">
        {pendingUpdates > 0 && (
          <Button size="sm" icon={RefreshCw} onClick={applyUpdates}>
            {pendingUpdates === 1 ? '1 update' : `${pendingUpdates} updates`} — show
          </Button>
        )}
      </div>
      <QueueGrid gridRef={gridRef} onPick={onPick} onRowsPainted={onRowsPainted} />
    </div>
  );
}
