import type { PointerEvent as ReactPointerEvent } from 'react';

interface ResizeHandleProps {
  /** What it resizes, e.g. "Resize the queue". */
  label: string;
  /** The size it controls, in pixels, and its limits. */
  value: number;
  min: number;
  max: number;
  onResize(next: number): void;
  /**
   * Which way the controlled thing grows as the handle moves right: the pane on its left grows
   * (`right`), the column on its right shrinks (`left`). The arrow keys move the handle the same way.
   */
  grows: 'right' | 'left';
  step?: number;
  className?: string;
}

/**
 * A vertical separator that the pointer drags and the arrow keys move (Home and End to the limits): the
 * ARIA window-splitter pattern, for panes and for table columns alike.
 */
export function ResizeHandle({
  label,
  value,
  min,
  max,
  onResize,
  grows,
  step = 24,
  className,
}: ResizeHandleProps) {
  const sign = grows === 'right' ? 1 : -1;
  const keys: Record<string, () => number> = {
    ArrowLeft: () => value - sign * step,
    ArrowRight: () => value + sign * step,
    Home: () => (sign > 0 ? min : max),
    End: () => (sign > 0 ? max : min),
  };
  const drag = (event: ReactPointerEvent<HTMLDivElement>) => {
    const startX = event.clientX;
    const startValue = value;
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (moved: PointerEvent) => onResize(startValue + sign * (moved.clientX - startX));
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be focused and moved; a focusable separator is the ARIA pattern for a splitter.
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className={['resize-handle', className].filter(Boolean).join(' ')}
      onKeyDown={(event) => {
        const next = keys[event.key];
        if (!next) return;
        event.preventDefault();
        event.stopPropagation();
        onResize(next());
      }}
      onPointerDown={drag}
      onClick={(event) => event.stopPropagation()}
    />
  );
}
