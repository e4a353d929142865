import type { ConnectionState, ServiceStatus } from '../../../contract/settings.ts';
import { useAppStore } from '../store.ts';

const STATE_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  online: 'Online',
  offline: 'Offline',
  'auth-failed': 'Sign-in failed',
  'not-configured': 'Not set up',
  'rate-limited': 'Rate limited by the service',
};

const hhmm = (iso: string) => {
  const at = new Date(iso);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
};

function stateText(service: ServiceStatus | null | undefined): string {
  const state = service?.state ?? 'connecting';
  if (state === 'rate-limited' && service?.retryAt)
    return `${STATE_TEXT[state]} — next try at ${hhmm(service.retryAt)}`;
  return STATE_TEXT[state];
}

export function StatusBar() {
  const { info, service } = useAppStore();
  return (
    <footer className="status-bar">
      <span>
        {service
          ? service.mode === 'sandbox'
            ? 'Sandbox'
            : `Service: ${service.baseUrl ?? 'not set'}`
          : '…'}
      </span>
      <span role="status" className={`connection connection-${service?.state ?? 'connecting'}`}>
        {stateText(service)}
      </span>
      {service?.lastSuccessAt && (
        <span>
          Last answer{' '}
          <time dateTime={service.lastSuccessAt}>{new Date(service.lastSuccessAt).toLocaleTimeString()}</time>
        </span>
      )}
      {info && (
        <span className="status-bar-end">
          {info.host === 'browser' ? 'Browser mode' : 'Desktop'} · v{info.version}
        </span>
      )}
    </footer>
  );
}
