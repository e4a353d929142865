import { useAppStore } from '../store.ts';

const CONNECTION_TEXT = {
  connecting: 'Connecting…',
  connected: 'Connected',
  unreachable: 'Main process unreachable',
} as const;

export function StatusBar() {
  const { info, connection } = useAppStore();
  return (
    <footer className="status-bar">
      <span>{info ? (info.serviceMode === 'sandbox' ? 'Sandbox' : 'Custom service') : '…'}</span>
      <span role="status">{CONNECTION_TEXT[connection]}</span>
      {info && (
        <span>
          {info.host === 'browser' ? 'Browser mode' : 'Desktop'} · v{info.version}
        </span>
      )}
    </footer>
  );
}
