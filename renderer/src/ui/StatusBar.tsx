import type { ConnectionState } from '../../../contract/settings.ts';
import { useAppStore } from '../store.ts';

const STATE_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  online: 'Online',
  offline: 'Offline',
  'auth-failed': 'Sign-in failed',
  'not-configured': 'Not set up',
};

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
        {STATE_TEXT[service?.state ?? 'connecting']}
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
