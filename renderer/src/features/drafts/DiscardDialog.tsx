import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#renderer/ui/Button.tsx';
import { Dialog } from '#renderer/ui/Dialog.tsx';

interface DiscardDialogProps {
  open: boolean;
  /** Who the draft is for, if it says yet. */
  name: string;
  onClose(): void;
  /** Discards; rejects with a message to show when it could not. */
  onConfirm(): Promise<void>;
}

/** "Discard this draft?": nothing is deleted until the reviewer says so here. */
export function DiscardDialog({ open, name, onClose, onConfirm }: DiscardDialogProps) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setProblem(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await onConfirm();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title="Discard this draft?" onClose={close}>
      <p>
        The draft{name ? ` for ${name}` : ''} and the personal data in it are deleted from Vetted. This cannot
        be undone; Vetted notes in its audit log that you discarded it.
      </p>
      {problem && <p role="alert">{problem}</p>}
      <div className="actions dialog-actions">
        <Button weight="danger" icon={Trash2} disabled={busy} onClick={() => void confirm()}>
          {busy ? 'Discarding…' : 'Discard draft'}
        </Button>
        <Button data-autofocus onClick={close}>
          Keep draft
        </Button>
      </div>
    </Dialog>
  );
}
