import { ImageUp } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { Button } from '#renderer/ui/Button.tsx';

const CHOOSE_FILE_ID = 'documents-choose-file';

/** For the customer view's "Upload documents" action: takes the reviewer to the drop zone. */
export function focusDropZone(): void {
  const button = document.getElementById(CHOOSE_FILE_ID);
  button?.scrollIntoView({ block: 'center' });
  button?.focus();
}

/**
 * Where the reviewer drops ID photos, or chooses them with the keyboard. Only what lands here is
 * taken: main.tsx keeps a file dropped anywhere else from opening in the window.
 */
export function DropZone({ onFiles }: { onFiles(files: File[]): void }) {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child the pointer crosses: count, not toggle.
  const depth = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const take = (files: FileList | null) => {
    const taken = [...(files ?? [])];
    if (taken.length > 0) onFiles(taken);
  };
  const onDragEnter = (event: DragEvent) => {
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    take(event.dataTransfer.files);
  };

  return (
    <fieldset
      aria-describedby={hintId}
      className="drop-zone"
      data-dragging={dragging || undefined}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <legend>Drop ID photos here</legend>
      <ImageUp aria-hidden="true" className="drop-zone-icon" />
      <p id={hintId}>Drag photos of the customer’s ID here (JPEG or PNG, up to 10 MB each), or</p>
      <Button id={CHOOSE_FILE_ID} size="sm" onClick={() => input.current?.click()}>
        Choose file
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png"
        multiple
        hidden
        tabIndex={-1}
        onChange={(event) => {
          take(event.currentTarget.files);
          // The same file chosen again must fire a change too.
          event.currentTarget.value = '';
        }}
      />
    </fieldset>
  );
}
