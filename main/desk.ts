import type { AppInfo } from '../contract/channels.ts';
import { type Handlers, serve } from '../contract/serve.ts';
import { createEventHub, type EventHub } from './event-hub.ts';
import { describeError, type Logger } from './log.ts';

export interface DeskOptions {
  host: AppInfo['host'];
  version: string;
  dataDir: string;
  log: Logger;
  /** Validate every output and pushed event against the contract (tests, development). */
  strictContract?: boolean;
}

/**
 * The composition root: builds every service from its options and answers every contract
 * channel. Both hosts (Electron and browser mode) serve the same desk.
 */
export interface Desk {
  handlers: Handlers;
  events: EventHub;
  dispatcher<Sender>(isTrustedSender: (sender: Sender) => boolean): ReturnType<typeof serve<Sender>>;
  close(): Promise<void>;
}

export async function createDesk(options: DeskOptions): Promise<Desk> {
  const events = createEventHub({ validate: options.strictContract ?? false });
  const info = (): AppInfo => ({
    name: 'Vetted',
    version: options.version,
    host: options.host,
    serviceMode: 'sandbox',
  });

  const handlers: Handlers = {
    'app.info': () => info(),
    'app.ping': ({ nonce }) => ({ nonce, at: new Date().toISOString() }),
  };

  return {
    handlers,
    events,
    dispatcher: (isTrustedSender) =>
      serve(handlers, {
        host: options.host,
        isTrustedSender,
        validateOutput: options.strictContract ?? false,
        onUnexpected: (channel, error) =>
          options.log.error('handler failed', { channel, ...describeError(error) }),
      }),
    async close() {},
  };
}
