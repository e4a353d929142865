import { CircleAlert, CircleCheck, CircleDashed, Clock } from 'lucide-react';
import type { AppInfo } from '#contract/channels.ts';
import type { ConnectionState, ServiceStatus } from '#contract/settings.ts';
import { formatClockTime, formatDateTime } from '../ui/time.tsx';
import { stateText } from './connection-text.ts';

const STATE_ICON: Record<ConnectionState, typeof CircleCheck> = {
  connecting: CircleDashed,
  online: CircleCheck,
  offline: CircleAlert,
  'auth-failed': CircleAlert,
  'not-configured': CircleDashed,
  'rate-limited': Clock,
};

/** The window's last line: which service, whether it answers, and which Vetted this is. */
export function StatusBar({ info, service }: { info: AppInfo | null; service: ServiceStatus | null }) {
  const state = service?.state ?? 'connecting';
  const Icon = STATE_ICON[state];
  return (
    <footer className="status-bar">
      <span>
        {service
          ? service.mode === 'sandbox'
            ? 'Sandbox'
            : `Service: ${service.baseUrl ?? 'not set'}`
          : '…'}
      </span>
      <span role="status" className={`connection connection-${state}`}>
        <Icon aria-hidden="true" className="connection-icon" />
        {stateText(service)}
      </span>
      {service?.lastSuccessAt && (
        <span>
          Last answer{' '}
          <time dateTime={service.lastSuccessAt} title={formatDateTime(service.lastSuccessAt)}>
            {formatClockTime(service.lastSuccessAt)}
          </time>
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
