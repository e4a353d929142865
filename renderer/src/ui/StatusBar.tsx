import { useAppStore } from '../store.ts';
import { stateText } from './connection-text.ts';

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
