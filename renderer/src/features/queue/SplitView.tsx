import { type ReactNode, useState } from 'react';
import { ResizeHandle } from '#renderer/ui/ResizeHandle.tsx';

const STORAGE_KEY = 'vetted.queue.listWidth';
const MIN = 360;
const MAX = 1100;
/** Until the reviewer moves it, the list takes this share of the room beside the sections. */
const DEFAULT_SHARE = 0.5;
/** The window's width that is not the split's: the screen's padding, the sections and the gap (CSS). */
const AROUND_SPLIT = 268;

const clamp = (width: number) => Math.min(MAX, Math.max(MIN, Math.round(width)));

function rememberedWidth(): number {
  const stored = Number(localStorage.getItem(STORAGE_KEY));
  if (Number.isFinite(stored) && stored > 0) return clamp(stored);
  return clamp((window.innerWidth - AROUND_SPLIT) * DEFAULT_SHARE);
}

interface SplitViewProps {
  list: ReactNode;
  detail: ReactNode;
}

/**
 * The queue on the left, the case on the right, with a separator between them that the pointer drags
 * and the arrow keys move (Home and End to the ends); the width is remembered on this computer. The case
 * keeps at least 480 px where the window has them, whatever the list was set to on a wider one.
 */
export function SplitView({ list, detail }: SplitViewProps) {
  const [width, setWidth] = useState(rememberedWidth);
  const resize = (next: number) => {
    const clamped = clamp(next);
    setWidth(clamped);
    localStorage.setItem(STORAGE_KEY, String(clamped));
  };
  return (
    <div
      className="split"
      style={{
        gridTemplateColumns: `minmax(${MIN}px, min(${width}px, calc(100% - 492px))) auto minmax(0, 1fr)`,
      }}
    >
      {list}
      <ResizeHandle
        label="Resize the queue"
        value={width}
        min={MIN}
        max={MAX}
        grows="right"
        className="split-handle"
        onResize={resize}
      />
      {detail}
    </div>
  );
}
