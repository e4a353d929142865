// What the team change listener schedules, held for the test to fire: nothing runs by itself. Reconnects and
// heartbeats are kept apart (told by their delays, HEARTBEAT's never being a back-off step) so that a test of
// one is not confused by the other.
import { HEARTBEAT, type Scheduler } from '#main/team/journal/change-listener.ts';

function held() {
  const pending: Array<{ ms: number; run: () => void }> = [];
  return {
    pending,
    add(ms: number, run: () => void) {
      const entry = { ms, run };
      pending.push(entry);
      return () => {
        const at = pending.indexOf(entry);
        if (at >= 0) pending.splice(at, 1);
      };
    },
    fire(what: string) {
      const next = pending.shift();
      if (!next) throw new Error(`No ${what} is waiting`);
      next.run();
    },
  };
}

export function heldScheduler() {
  const reconnects = held();
  const heartbeats = held();
  /** Every reconnect delay asked for, in order. */
  const delays: number[] = [];
  const schedule: Scheduler = (ms, run) => {
    if (ms === HEARTBEAT.everyMs || ms === HEARTBEAT.answerMs) return heartbeats.add(ms, run);
    delays.push(ms);
    return reconnects.add(ms, run);
  };
  return {
    schedule,
    delays,
    /** Reconnects waiting. */
    pending: () => reconnects.pending.length,
    /** Runs the first reconnect waiting. */
    fire: () => reconnects.fire('reconnect'),
    /** What the heartbeat waits for: the next beat, or a beat's answer. */
    heartbeat: () => heartbeats.pending.map((entry) => (entry.ms === HEARTBEAT.everyMs ? 'beat' : 'answer')),
    /** Runs the heartbeat's next step: sends a beat, or gives up waiting for its answer. */
    fireHeartbeat: () => heartbeats.fire('heartbeat'),
  };
}
