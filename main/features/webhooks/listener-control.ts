import type { ListenerStatus } from '#contract/webhooks.ts';
import {
  DEFAULT_LIMITS,
  type ListenerHandlers,
  type ListenerLimits,
  type RunningListener,
  startListener,
} from './listener.ts';

/**
 * Keeps the listener running on the configured port for as long as the desk runs. A port taken by
 * another program does not stop Vetted: it listens on a free port instead and says so (the sandbox
 * follows; a tunnel would have to).
 */
export interface ListenerControl {
  /** Settles once the first attempt to listen is over, whatever its outcome. */
  readonly ready: Promise<void>;
  url(): string | null;
  status(): ListenerStatus;
  /** Listens again on the configured port (after it changed in Settings). */
  restart(): Promise<ListenerStatus>;
  close(): Promise<void>;
}

export interface ListenerControlOptions {
  /** The port to listen on: from settings, or a test's 0. */
  port(): number;
  handlers: ListenerHandlers;
  limits?: Partial<ListenerLimits>;
  /** Requests refused since start. */
  rejected(): number;
  onStatus(status: ListenerStatus): void;
}

export function controlListener(options: ListenerControlOptions): ListenerControl {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let running: RunningListener | null = null;
  let problem: string | null = null;
  let closed = false;

  const status = (): ListenerStatus => ({
    listening: running !== null,
    url: running?.url ?? null,
    port: running?.port ?? null,
    configuredPort: options.port(),
    problem,
    rejected: options.rejected(),
  });

  const listen = async () => {
    const port = options.port();
    try {
      running = await startListener(port, options.handlers, limits);
      problem = null;
    } catch (error) {
      if (errorCode(error) !== 'EADDRINUSE' || port === 0) {
        problem = `Vetted could not listen for webhooks on 127.0.0.1:${port} (${errorCode(error) ?? 'error'}).`;
        return;
      }
      running = await startListener(0, options.handlers, limits).catch(() => null);
      problem = running
        ? `Port ${port} is used by another program, so Vetted listens on port ${running.port} instead. A tunnel ` +
          `forwarding to ${port} does not reach Vetted: free that port and listen again, or change the port in Settings.`
        : `Port ${port} is used by another program, and no other port could be opened.`;
    }
    if (closed) await stop();
    options.onStatus(status());
  };

  const stop = async () => {
    const current = running;
    running = null;
    await current?.close();
  };

  let ready = listen();
  return {
    get ready() {
      return ready;
    },
    url: () => running?.url ?? null,
    status,
    async restart() {
      await ready;
      ready = stop().then(listen);
      await ready;
      return status();
    },
    async close() {
      closed = true;
      await ready;
      await stop();
    },
  };
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
