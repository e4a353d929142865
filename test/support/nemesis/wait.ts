// A bounded wait for a condition checked every 200 ms, for the nemesis run (a script as well as a test: no
// vitest here). The bound is generous; a condition that never holds fails with `what` in the message.
export async function waitFor<T>(
  condition: () => Promise<T | false | null | undefined>,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs / 1000} s for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
