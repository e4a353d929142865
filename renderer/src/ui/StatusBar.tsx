import type { AppInfo } from '../../../contract/channels.ts';
import type { ServiceStatus } from '../../../contract/settings.ts';
import { stateText } from './connection-text.ts';

/** The window's last line: which service, whether it answers, and which Vetted this is. */
export function StatusBar({ info, service }: { info: AppInfo | null; service: ServiceStatus | null }) {
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
