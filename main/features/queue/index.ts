import { dueBefore } from '#main/data/journal/index.ts';
import { withLatestNotes } from '#main/sync/reconcile/queue-row.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Claims } from '../team-interfaces/claims.ts';
import { overdueWatch } from './overdue.ts';

type QueueChannels = 'queue.window' | 'queue.overdue';

/** How often cases are checked against their ageing targets: a target is hours, a minute late is on time. */
export const OVERDUE_CHECK_MS = 60_000;

export interface QueueFeatureOptions {
  /** Resolves the claim filter ("Mine", "Unclaimed", a reviewer's) to the cases it leaves. */
  claims: Pick<Claims, 'scope'>;
  /** Main's clock, injectable so tests decide when cases go overdue. */
  clock?: () => Date;
  /** Starts the periodic check; returns its stop. Tests pass their own (or none) to drive `check` themselves. */
  every?: (ms: number, run: () => void) => () => void;
}

const intervalTimer = (ms: number, run: () => void) => {
  const timer = setInterval(run, ms);
  timer.unref?.();
  return () => clearInterval(timer);
};

/** The queue's windows (in the reviewer's order and filters) and its ageing targets. */
export function queueFeature(context: DeskContext, options: QueueFeatureOptions): Feature<QueueChannels> {
  const { journal, settings, events, log, notifier } = context;
  const clock = options.clock ?? (() => new Date());
  const watch = overdueWatch({ journal, settings, events, notifier, clock });
  const checkNow = () => {
    watch.check().catch((error: unknown) => log.warn('overdue check failed', { error: String(error) }));
  };
  const stop = (options.every ?? intervalTimer)(OVERDUE_CHECK_MS, checkNow);
  return {
    handlers: {
      'queue.window': async (input) =>
        withLatestNotes(
          journal,
          await journal.queue.window(
            input,
            dueBefore(settings.get().ageingTargets, clock()),
            options.claims.scope(input.filters?.claim),
          ),
        ),
      'queue.overdue': () => watch.check(),
    },
    onSettingsChanged(changed) {
      if (!changed.includes('ageingTargets')) return;
      watch.reset();
      checkNow();
    },
    close: stop,
  };
}
