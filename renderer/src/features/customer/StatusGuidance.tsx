import { statusGuidance, statusName } from '../../../../contract/statuses.ts';

/** The status in plain words, and what the reviewer can do about it: one line, the same words main refuses with. */
export function StatusGuidance({
  status,
  pendingDocuments = 0,
}: {
  status: string;
  pendingDocuments?: number;
}) {
  return (
    <p className="status-guidance">
      <strong>{statusName(status)}.</strong> {statusGuidance(status, pendingDocuments)}
    </p>
  );
}
