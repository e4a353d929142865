// How the drain loop waits between two looks at the outbox: a poll's sleep that a kick (a submit, a finished
// send, `settled`, `close`) cuts short.
export interface Wakeup {
  /** Ends the sleep under way, or skips the next one. */
  kick(): void;
  /** Waits `ms`, or until a kick; resolves at once after a kick that came while no sleep was waiting. */
  sleep(ms: number): Promise<void>;
}

export function wakeup(): Wakeup {
  let wake: (() => void) | undefined;
  /** A kick that came while no sleep was waiting: the next sleep is skipped, so none is lost. */
  let kicked = false;
  return {
    kick() {
      if (wake) wake();
      else kicked = true;
    },
    sleep(ms) {
      if (kicked) {
        kicked = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    },
  };
}
