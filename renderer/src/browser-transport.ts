import type { Transport } from '#contract/bridge.ts';

/**
 * Browser mode's way to main: invoke over same-origin POST, pushed events over server-sent
 * events, each carrying this launch's token. The token arrives once, in the launch URL's fragment
 * (which no server and no Referer ever sees); the page moves it to sessionStorage, which belongs
 * to this origin — port included — alone, and out of the address bar. It is never a cookie:
 * cookies are not scoped by port, so every other server on 127.0.0.1 would receive one.
 */
const STORAGE_KEY = 'vetted.session';

function sessionToken(): string | null {
  const fromLaunch = /(?:^#|&)token=([^&]+)/.exec(window.location.hash)?.[1];
  if (fromLaunch) {
    sessionStorage.setItem(STORAGE_KEY, decodeURIComponent(fromLaunch));
    history.replaceState(history.state, '', `${window.location.pathname}${window.location.search}`);
  }
  return sessionStorage.getItem(STORAGE_KEY);
}

const NO_TOKEN = 'Open Vetted with the address printed at start-up: it carries the key this page needs.';

export function browserTransport(origin: string = window.location.origin): Transport {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const token = sessionToken();
  let source: EventSource | null = null;

  const connect = () => {
    if (!token) return;
    source = new EventSource(`${origin}/api/events?token=${encodeURIComponent(token)}`);
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
      if (!token) throw new Error(NO_TOKEN);
      const response = await fetch(`${origin}/api/invoke/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ input }),
        credentials: 'omit',
      });
      if (response.status === 401) throw new Error(NO_TOKEN);
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
