// A timer that only fires when the test says so: retries become events the test triggers, never sleeps.
import type { Schedule } from '#main/team/hub/leadership.ts';

export function manualSchedule() {
  let waiting: Array<() => void> = [];
  const schedule: Schedule = (run) => {
    waiting.push(run);
    return () => {
      waiting = waiting.filter((one) => one !== run);
    };
  };
  return {
    schedule,
    pending: () => waiting.length,
    /** Runs everything scheduled so far. */
    fire() {
      const due = waiting;
      waiting = [];
      for (const run of due) run();
    },
  };
}
