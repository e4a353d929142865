import type { ConnectionState, ServiceStatus } from '#contract/settings.ts';

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

/** The connection as the status bar says it; a rate limit with its next try in local HH:MM. */
export function stateText(service: ServiceStatus | null | undefined): string {
  const state = service?.state ?? 'connecting';
  if (state === 'rate-limited' && service?.retryAt)
    return `${STATE_TEXT[state]} — next try at ${hhmm(service.retryAt)}`;
  return STATE_TEXT[state];
}
