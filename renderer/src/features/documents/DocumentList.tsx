import { CircleCheck, CircleX, Hourglass } from 'lucide-react';
import { documentTypeLabel, MAX_PENDING_DOCUMENTS } from '#contract/document-rules.ts';
import type { CustomerDocument } from '#contract/documents.ts';
import { type BadgeLook, StatusBadge } from '#renderer/ui/StatusBadge.tsx';
import { Moment } from '#renderer/ui/time.tsx';
import type { CustomerDocuments } from './documents-store.ts';

const REVIEW_LABELS: Record<string, string> = {
  pending: 'Pending review',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/** A review state in words; one Vetted does not know, as the service sent it. */
export const reviewLabel = (review: string) => REVIEW_LABELS[review] ?? review;

const REVIEW_LOOKS: Record<string, Omit<BadgeLook, 'label'>> = {
  pending: { tone: 'info', icon: Hourglass },
  accepted: { tone: 'success', icon: CircleCheck },
  rejected: { tone: 'danger', icon: CircleX },
};

/** A review as a badge; one Vetted does not know is neutral. */
const reviewLook = (review: string): BadgeLook => ({
  ...(REVIEW_LOOKS[review] ?? { tone: 'neutral', icon: Hourglass }),
  label: reviewLabel(review),
});

function Reasons({ document }: { document: CustomerDocument }) {
  if (document.reasons.length === 0) return null;
  return (
    <ul className="document-reasons">
      {document.reasons.map((reason) => (
        <li key={reason.code} title={reason.description ?? undefined}>
          {reason.text}
          {reason.text !== reason.code && (
            <>
              {' '}
              <code>{reason.code}</code>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The customer's documents as the service lists them, newest first, with why any was rejected. */
export function DocumentList({ entry }: { entry: CustomerDocuments | undefined }) {
  const list = entry?.list;
  return (
    <>
      {entry?.problem && <p role="alert">{entry.problem}</p>}
      {!list ? (
        !entry?.problem && <p className="hint">Loading documents…</p>
      ) : list.documents.length === 0 ? (
        <p className="hint">No documents uploaded for this customer yet.</p>
      ) : (
        <table className="data-table documents-table">
          <caption>
            Documents on the service: {list.pending} of at most {MAX_PENDING_DOCUMENTS} waiting for review
          </caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Uploaded</th>
              <th scope="col">Review</th>
              <th scope="col">Why rejected</th>
            </tr>
          </thead>
          <tbody>
            {list.documents.map((document) => (
              <tr key={document.id}>
                <td>{documentTypeLabel(document.type)}</td>
                <td>
                  <Moment at={document.uploadedAt} />
                </td>
                <td>
                  <StatusBadge {...reviewLook(document.review)} />
                </td>
                <td>
                  <Reasons document={document} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
