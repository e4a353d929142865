import type { Transport } from '../../contract/bridge.ts';

/**
 * Browser mode's way to main: invoke over same-origin POST, pushed events over server-sent
 * events. The session cookie set at launch carries the token; no secret lives in this page.
 */
export function browserTransport(origin: string = window.location.origin): Transport {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  let source: EventSource | null = null;

  const connect = () => {
    source = new EventSource(`${origin}/api/events`);
    source.onmessage = (message) => {
      let frame: { event?: unknown; payload?: unknown };
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (typeof frame.event !== 'string') return;
      for (const listener of listeners) listener(frame.event, frame.payload);
    };
  };

  return {
    async invoke(channel, input) {
      const response = await fetch(`${origin}/api/invoke/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ input }),
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!source) connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
  };
}
