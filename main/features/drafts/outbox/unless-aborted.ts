/**
 * A promise's result, or `undefined` as soon as `signal` aborts (its late result is then dropped).
 *
 * Not `Promise.race([promise, aborted])` with one long-lived `aborted` promise: every race leaves a
 * reaction on that promise until it settles, and each reaction keeps its race's result alive. The
 * outbox raced every customer fetch that way, so a day's sent drafts stayed in memory until close
 * (about 1.7 KiB each). Here the listener goes as soon as the promise settles.
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  // A rejection after the abort has nobody left to hear it.
  promise.catch(() => {});
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
