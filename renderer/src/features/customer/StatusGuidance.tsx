import { statusGuidance } from '../../../../contract/statuses.ts';

/**
 * What the reviewer can do about the customer's status, as a sentence (contract/statuses.ts: the same
 * words main refuses with). The status itself and its section's title are shown beside it.
 */
export function StatusGuidance({
  status,
  pendingDocuments = 0,
}: {
  status: string;
  pendingDocuments?: number;
}) {
  return <p className="status-guidance">{statusGuidance(status, pendingDocuments)}</p>;
}
