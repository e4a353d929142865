import { formatDateTime } from '#renderer/ui/time.tsx';
import { useWebhooksStore } from './webhooks-store.ts';

/** The security log: requests the listener refused (bad signature, too large, too slow…), newest first. */
export function RefusedRequests() {
  const { log, problem } = useWebhooksStore((state) => state.securityLog);
  const load = useWebhooksStore((state) => state.loadSecurityLog);
  return (
    <details
      className="webhooks-refused"
      onToggle={(event) => {
        // Read when opened, so that it is as of now.
        if (event.currentTarget.open) void load();
      }}
    >
      <summary>Refused requests</summary>
      {problem && <p role="alert">{problem}</p>}
      {log && log.rows.length === 0 && <p>No request has been refused.</p>}
      {log && log.rows.length > 0 && (
        <table className="data-table webhooks-table">
          <caption>
            {log.total > log.rows.length ? `The last ${log.rows.length} of ${log.total}` : `${log.total}`}{' '}
            refused, newest first. “Forwarded for” is what a tunnel claimed, not proven.
          </caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">From</th>
              <th scope="col">Forwarded for</th>
              <th scope="col">Status</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {log.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows carry no id, and the list is replaced whole.
              <tr key={`${row.at}-${index}`}>
                <td>
                  <time dateTime={row.at}>{formatDateTime(row.at)}</time>
                </td>
                <td>{row.remoteAddress}</td>
                <td>{row.forwardedFor ?? '—'}</td>
                <td>{row.status}</td>
                <td>{row.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
