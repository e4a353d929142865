// The last net of a long-running process (the desk's hosts, the hub): an exception nothing caught, or a
// promise rejected with no handler, is written to the log (scrubbed like every line) and counted for
// Settings → Diagnostics, never silently swallowed. Nothing should ever reach it: a lost connection to the team
// store is heard where the connection is (team/store/checkout.ts) and every promise is awaited or caught
// (Biome's noFloatingPromises); a fault here is a bug to fix, and the count makes it visible.
//
// The process goes on. What must survive is durable in transactional stores (the SQLite journal, the team
// store), which roll back a unit of work cut short, so at worst one piece of work in memory was abandoned (a
// refresh, a send), and each is tried again by its own retry (the event processor's, the outbox's, the
// replica's catch-up). Ending the process instead would cost a team its webhook listener, or a reviewer their
// screen, for every such bug: the very outcome #37 was about.
import type { EventEmitter } from 'node:events';
import { describeError, type Logger } from './logger.ts';

export type ProcessFaultKind = 'uncaughtException' | 'unhandledRejection';

/** What the Diagnostics panel shows: how many faults since start, and when and what the last one was. */
export interface ProcessFaults {
  count: number;
  last: { at: string; kind: ProcessFaultKind } | null;
}

export interface ProcessGuard {
  faults(): ProcessFaults;
  /** Takes the listeners off again (a test's guard; a process keeps its own to the end). */
  dispose(): void;
}

export interface ProcessGuardOptions {
  log: Pick<Logger, 'error'>;
  /** The process to guard: Node's own, or a stand-in in tests. */
  target?: EventEmitter;
  now?: () => Date;
}

const NO_FAULTS: ProcessFaults = { count: 0, last: null };
/** The guard of this process, once a host or the hub installed it. */
let installed: ProcessGuard | undefined;

/** The faults the guard of this process has caught (none while no guard is installed). */
export const processFaults = (): ProcessFaults => installed?.faults() ?? NO_FAULTS;

export function guardProcess({
  log,
  target = process,
  now = () => new Date(),
}: ProcessGuardOptions): ProcessGuard {
  let count = 0;
  let last: ProcessFaults['last'] = null;
  const caught = (kind: ProcessFaultKind) => (error: unknown) => {
    count++;
    last = { at: now().toISOString(), kind };
    log.error(
      kind === 'uncaughtException'
        ? 'process: an exception nothing caught (the process goes on)'
        : 'process: a promise rejected with no handler (the process goes on)',
      { kind, faults: count, ...describeError(error) },
    );
  };
  const onException = caught('uncaughtException');
  const onRejection = caught('unhandledRejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  const guard: ProcessGuard = {
    faults: () => ({ count, last }),
    dispose() {
      target.off('uncaughtException', onException);
      target.off('unhandledRejection', onRejection);
      if (installed === guard) installed = undefined;
    },
  };
  if (target === process) installed = guard;
  return guard;
}
