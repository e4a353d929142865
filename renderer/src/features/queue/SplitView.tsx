import { type ReactNode, useState } from 'react';

const STORAGE_KEY = 'vetted.queue.listWidth';
const MIN = 320;
const MAX = 1100;
const STEP = 24;
const DEFAULT = 560;

const clamp = (width: number) => Math.min(MAX, Math.max(MIN, Math.round(width)));

function rememberedWidth(): number {
  const stored = Number(localStorage.getItem(STORAGE_KEY));
  return Number.isFinite(stored) && stored > 0 ? clamp(stored) : DEFAULT;
}

interface SplitViewProps {
  list: ReactNode;
  detail: ReactNode;
}

/**
 * The queue on the left, the case on the right, with a separator between them that the pointer drags
 * and the arrow keys move (Home and End to the ends); the width is remembered on this computer.
 */
export function SplitView({ list, detail }: SplitViewProps) {
  const [width, setWidth] = useState(rememberedWidth);
  const resize = (next: number) => {
    const clamped = clamp(next);
    setWidth(clamped);
    localStorage.setItem(STORAGE_KEY, String(clamped));
  };
  const keys: Record<string, () => void> = {
    ArrowLeft: () => resize(width - STEP),
    ArrowRight: () => resize(width + STEP),
    Home: () => resize(MIN),
    End: () => resize(MAX),
  };
  return (
    <div className="split" style={{ gridTemplateColumns: `${width}px auto minmax(0, 1fr)` }}>
      {list}
      {/* biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be focused and moved; a focusable separator is the ARIA pattern for a splitter. */}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the queue"
        aria-valuenow={width}
        aria-valuemin={MIN}
        aria-valuemax={MAX}
        tabIndex={0}
        className="split-handle"
        onKeyDown={(event) => {
          const run = keys[event.key];
          if (!run) return;
          event.preventDefault();
          event.stopPropagation();
          run();
        }}
        onPointerDown={(event) => {
          const start = event.clientX - width;
          const target = event.currentTarget;
          target.setPointerCapture(event.pointerId);
          const move = (moved: PointerEvent) => resize(moved.clientX - start);
          const up = () => {
            target.removeEventListener('pointermove', move);
            target.removeEventListener('pointerup', up);
          };
          target.addEventListener('pointermove', move);
          target.addEventListener('pointerup', up);
        }}
      />
      {detail}
    </div>
  );
}
