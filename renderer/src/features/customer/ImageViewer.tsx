import { type KeyboardEvent, useState } from 'react';
import { Dialog } from '#renderer/ui/Dialog.tsx';

const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3, 4];
const START = ZOOMS.indexOf(1);

interface ImageViewerProps {
  /** The image as a data: URL; null while closed. */
  src: string | null;
  title: string;
  onClose(): void;
}

/** A document's image, large: zoom and rotate with the buttons or their keys (+, −, r, 0); Esc closes. */
export function ImageViewer({ src, title, onClose }: ImageViewerProps) {
  const [zoom, setZoom] = useState(START);
  const [turns, setTurns] = useState(0);
  const zoomBy = (step: number) => setZoom((at) => Math.min(ZOOMS.length - 1, Math.max(0, at + step)));
  const rotate = () => setTurns((at) => (at + 1) % 4);
  const reset = () => {
    setZoom(START);
    setTurns(0);
  };
  const close = () => {
    reset();
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const run = { '+': () => zoomBy(1), '=': () => zoomBy(1), '-': () => zoomBy(-1), r: rotate, '0': reset }[
      event.key
    ];
    if (!run) return;
    event.preventDefault();
    run();
  };
  const percent = Math.round((ZOOMS[zoom] ?? 1) * 100);
  return (
    <Dialog open={src !== null} title={title} onClose={close}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the keys work wherever focus is inside the viewer; each also has a button. */}
      <div className="image-viewer" onKeyDown={onKeyDown}>
        <div className="image-viewer-tools" role="toolbar" aria-label="Image">
          <button type="button" onClick={() => zoomBy(1)} aria-keyshortcuts="+" data-autofocus>
            Zoom in (+)
          </button>
          <button type="button" onClick={() => zoomBy(-1)} aria-keyshortcuts="-">
            Zoom out (−)
          </button>
          <button type="button" onClick={rotate} aria-keyshortcuts="r">
            Rotate (r)
          </button>
          <button type="button" onClick={reset} aria-keyshortcuts="0">
            Reset (0)
          </button>
          <output aria-live="polite">
            {percent}%, rotated {turns * 90}°
          </output>
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: zoomed in, the image scrolls: the keyboard must reach it (axe: scrollable-region-focusable). */}
        <section className="image-viewer-stage" tabIndex={0} aria-label="Image, scrollable when zoomed">
          {src && (
            <img
              src={src}
              alt={title}
              style={{ transform: `scale(${ZOOMS[zoom]}) rotate(${turns * 90}deg)` }}
              data-zoom={percent}
              data-rotation={turns * 90}
            />
          )}
        </section>
      </div>
    </Dialog>
  );
}
