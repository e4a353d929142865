// The hub's life: its core (the desk core, headless, on the team journal) runs all the time; the webhook
// listener role (listener, catch-up, subscriptions) runs only while this hub holds the leadership, so a
// team has exactly one listener however many hubs are started.
import type pg from 'pg';
import type { Logger } from '#main/ground/log/logger.ts';
import { type Leadership, type LeadershipRole, type Schedule, startLeadership } from './leadership.ts';

/** What the coordinator composes from the desk's features on the team journal. */
export interface HubCore {
  /** Starts the listener role; answers where the listener listens. */
  startListener(): Promise<{ url: string }>;
  stopListener(): Promise<void>;
  close(): Promise<void>;
}

export interface HubRoles {
  startCore(): Promise<HubCore>;
}

export interface RunHubOptions {
  /** A new dedicated connection to the team store, for the leadership lock. */
  connect: () => Promise<pg.Client>;
  /** One line per role change, for the terminal. */
  say(line: string): void;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** How often a standby tries for the role (default 5 s). */
  retryMs?: number;
  schedule?: Schedule;
}

export interface RunningHub {
  role(): LeadershipRole;
  /** Stops the listener, releases the role for a standby, closes the core. */
  close(): Promise<void>;
}

export const DEFAULT_RETRY_MS = 5_000;
export const STANDBY_LINE = 'hub: standby — another hub holds the listener';

export async function runHub(options: RunHubOptions, roles: HubRoles): Promise<RunningHub> {
  const core = await roles.startCore();
  let stopping = false;
  const leadership: Leadership = startLeadership({
    connect: options.connect,
    retryMs: options.retryMs ?? DEFAULT_RETRY_MS,
    ...(options.schedule ? { schedule: options.schedule } : {}),
    log: options.log,
    async onLead() {
      // Logged apart from the line below: the time from here to a listening listener is what taking over costs.
      options.log.info('hub: took the listener role; starting the listener');
      const { url } = await core.startListener();
      options.log.info('hub: leading', { url });
      options.say(`hub: leading — webhook listener on ${url}`);
    },
    async onLose() {
      await core.stopListener();
      options.log.info('hub: listener role given up', { stopping });
    },
    onStandby() {
      if (!stopping) options.say(STANDBY_LINE);
    },
  });
  let closed: Promise<void> | undefined;
  return {
    role: () => leadership.role(),
    close() {
      closed ??= (async () => {
        stopping = true;
        try {
          await leadership.stop();
        } finally {
          await core.close();
        }
      })();
      return closed;
    },
  };
}
