/** What a store does around one call to main. */
export interface AskHandlers<T> {
  /** Up while the call runs (a store disables its buttons), down after, whatever main answered. */
  busy(on: boolean): void;
  answered(value: T): void;
  refused(error: unknown): void;
}

/** One call to main on behalf of a store; resolves true when main answered, false when it refused. */
export async function askMain<T>(call: () => Promise<T>, handlers: AskHandlers<T>): Promise<boolean> {
  handlers.busy(true);
  try {
    handlers.answered(await call());
    return true;
  } catch (error) {
    handlers.refused(error);
    return false;
  } finally {
    handlers.busy(false);
  }
}
