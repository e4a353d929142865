// Ageing targets: which cases have waited past their section's target, counted for the queue and
// announced (once, as they cross it) as notifications. Main's clock decides, injectable for tests.
import { SECTION_TITLES } from '#contract/queue.ts';
import type { Overdue } from '#contract/queue-view.ts';
import { dueBefore, type Journal } from '#main/data/journal/index.ts';
import type { SettingsStore } from '#main/ground/config/settings-store.ts';
import type { EventHub } from '#main/ground/event-hub.ts';
import type { Notifier } from '#main/ground/notifier.ts';

/** More cases than this going overdue at once make one notification, not a burst. */
const SINGLE_NOTICES = 3;

export interface OverdueWatch {
  /** Counts overdue cases now, pushes `queue.overdue`, and announces the cases that crossed since the last check. */
  check(): Promise<Overdue>;
  /** Forgets the last check (after the targets change: what is overdue under new targets is not news). */
  reset(): void;
}

export function overdueWatch(options: {
  journal: Journal;
  settings: SettingsStore;
  events: EventHub;
  /** Where the announcements go (the desk's one rule for notifications). */
  notifier: Pick<Notifier, 'tell'>;
  clock: () => Date;
}): OverdueWatch {
  const { journal, settings, events, notifier, clock } = options;
  let last: Date | null = null;
  let running: Promise<Overdue> | null = null;

  const announce = async (from: Date, now: Date) => {
    const { ageingTargets } = settings.get();
    const crossed = await journal.queue.wentOverdue(
      dueBefore(ageingTargets, from),
      dueBefore(ageingTargets, now),
      SINGLE_NOTICES + 1,
    );
    if (crossed.length > SINGLE_NOTICES) {
      const first = crossed[0]!;
      notifier.tell('overdue', {
        customerId: first.id,
        status: 'overdue',
        title: 'Cases overdue',
        body: `${SINGLE_NOTICES}+ cases have waited past their target, ${first.name} first.`,
      });
      return;
    }
    for (const overdue of crossed) {
      notifier.tell('overdue', {
        customerId: overdue.id,
        status: 'overdue',
        title: 'Case overdue',
        body: `${overdue.name} has waited over ${ageingTargets[overdue.section]} h in ${SECTION_TITLES[overdue.section]}.`,
      });
    }
  };

  const run = async (): Promise<Overdue> => {
    const now = clock();
    const { ageingTargets, overdueNotifications } = settings.get();
    const counts = await journal.queue.overdueCounts(dueBefore(ageingTargets, now));
    if (last && overdueNotifications && now > last) await announce(last, now);
    last = now;
    const overdue: Overdue = { counts: { ...counts }, targets: { ...ageingTargets }, at: now.toISOString() };
    events.emit('queue.overdue', overdue);
    return overdue;
  };

  return {
    check() {
      // One check at a time: a timer and a screen asking at once share the answer.
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    reset() {
      last = null;
    },
  };
}
