import type { EventInbox, RejectionInput } from '#main/data/journal/index.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';

/** A request the listener refused: when (the journal stamps it), from where, what was answered, why. */
export type Rejection = RejectionInput;

/**
 * The listener's security log, kept in the journal (webhook_rejections). Written lazily with the
 * deliveries' groups, so that a flood of bad requests costs next to no fsyncs.
 */
export interface SecurityLog {
  record(rejection: Rejection): void;
  /** Refused since start. */
  readonly count: number;
}

export function createSecurityLog(writer: EventInbox, log: Logger): SecurityLog {
  let count = 0;
  let warned = false;
  return {
    record(rejection) {
      count++;
      writer.recordRejection(rejection).catch((error: unknown) => {
        // Said once: a journal that cannot write says so loudly elsewhere, and a flood must not flood the log.
        if (warned) return;
        warned = true;
        log.error('security log write failed', describeError(error));
      });
    },
    get count() {
      return count;
    },
  };
}
