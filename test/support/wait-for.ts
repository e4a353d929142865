// A bounded wait for a condition, without vitest: for test support that scripts and benches use as well
// (clusters, HAProxy, the nemesis run). In a vitest test, `until` (poll.ts) says the same with vitest's
// own waiter. The bound is generous; a condition that never holds fails with `what` in the message.
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  what: string,
  timeoutMs: number,
  intervalMs = 200,
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs / 1000} s for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
