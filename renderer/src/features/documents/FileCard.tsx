import { RotateCcw, Trash2, Upload, X } from 'lucide-react';
import { useId } from 'react';
import {
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPES,
  type DocumentType,
  formatFileSize,
} from '#contract/document-rules.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Select } from '#renderer/ui/Select.tsx';
import { reviewLabel } from './DocumentList.tsx';
import { type FileCard as Card, useDocumentsStore } from './documents-store.ts';

function UploadProgress({ card, label }: { card: Card; label: string }) {
  const { progress } = card;
  // Until main reports, the file is still on its way to main: no figure to show yet.
  if (!progress || progress.total === 0) {
    return (
      <p className="upload-progress">
        <progress aria-label={label} /> Preparing…
      </p>
    );
  }
  const percent = Math.floor((progress.sent / progress.total) * 100);
  return (
    <p className="upload-progress">
      <progress aria-label={label} value={progress.sent} max={progress.total} /> {percent}%
    </p>
  );
}

interface FileCardProps {
  card: Card;
  /** The review of the document this file became, once the service lists it. */
  review: string | null;
}

/** One dropped file: preview, size, type, its checks and upload, and what came of it. */
export function FileCard({ card, review }: FileCardProps) {
  const chooseType = useDocumentsStore((state) => state.chooseType);
  const upload = useDocumentsStore((state) => state.upload);
  const cancel = useDocumentsStore((state) => state.cancel);
  const remove = useDocumentsStore((state) => state.remove);
  const nameId = useId();
  const problemId = useId();
  const typeId = useId();
  const name = card.file.name;
  const problem = card.fileProblem ?? card.problem;
  const uploading = card.state === 'uploading';
  const uploadable = !card.fileProblem && card.state !== 'uploaded';

  return (
    <li className="file-card" aria-labelledby={nameId} data-state={card.state}>
      {card.previewUrl ? (
        <img className="file-preview" src={card.previewUrl} alt={`Preview of ${name}`} />
      ) : (
        <div className="file-preview file-preview-none" aria-hidden="true">
          No preview
        </div>
      )}
      <div className="file-body">
        <p className="file-title">
          <strong id={nameId}>{name}</strong>{' '}
          <span className="file-size">{formatFileSize(card.file.size)}</span>
        </p>
        {uploadable && (
          <div className="field">
            <label htmlFor={typeId}>Document type</label>
            <Select
              id={typeId}
              value={card.documentType}
              disabled={uploading}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => chooseType(card.key, event.currentTarget.value as DocumentType | '')}
            >
              <option value="">Choose…</option>
              {DOCUMENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {DOCUMENT_TYPE_LABELS[type]}
                </option>
              ))}
            </Select>
          </div>
        )}
        {uploading && <UploadProgress card={card} label={`Uploading ${name}`} />}
        {problem && (
          <p id={problemId} role="alert" className="field-error">
            {problem.message}
          </p>
        )}
        {card.state === 'uploaded' && card.document && (
          <p role="status" className="file-uploaded">
            {!review || review === 'pending'
              ? 'Uploaded: waiting for the service’s review.'
              : `Uploaded. Reviewed: ${reviewLabel(review)}.`}{' '}
            <a href={card.document.url} target="_blank" rel="noreferrer">
              Document on the service
            </a>
          </p>
        )}
        <div className="actions">
          {uploadable && !uploading && (
            <Button
              size="sm"
              icon={card.state === 'failed' ? RotateCcw : Upload}
              onClick={() => void upload(card.key)}
            >
              {card.state === 'failed' ? 'Try again' : 'Upload'}
            </Button>
          )}
          {uploading && (
            <Button size="sm" icon={X} onClick={() => void cancel(card.key)}>
              Cancel upload
            </Button>
          )}
          {!uploading && (
            <Button
              size="sm"
              weight="quiet"
              icon={card.state === 'uploaded' ? X : Trash2}
              onClick={() => remove(card.key)}
              aria-describedby={nameId}
            >
              {card.state === 'uploaded' ? 'Dismiss' : 'Remove'}
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}
