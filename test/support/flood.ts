/** An inbox's priority (InboxPriority) under a flood of deliveries that the test ends by hand. */
export function flood() {
  let waiting: Array<() => void> = [];
  return {
    busy: true,
    onQuiet(callback: () => void) {
      waiting.push(callback);
    },
    end() {
      this.busy = false;
      const callbacks = waiting;
      waiting = [];
      for (const callback of callbacks) callback();
    },
  };
}
