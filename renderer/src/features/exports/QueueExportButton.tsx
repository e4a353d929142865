import { useState } from 'react';
import { QueueExportDialog } from './QueueExportDialog.tsx';

/** The queue toolbar's export: the view as CSV, names masked unless revealed with a reason. */
export function QueueExportButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Export view…
      </button>
      <QueueExportDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
