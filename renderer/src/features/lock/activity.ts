import type { LockState } from '#contract/lock.ts';

/** The page tells main of the reviewer's input at most this often: never once per keystroke. */
export const REPORT_EVERY_MS = 5_000;
const INPUT_EVENTS = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;

export interface ActivityOptions {
  /** Where input happens (the window). */
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** The lock's settings and state as main last said. */
  lock(): LockState | null;
  /** Tells main of input (`lock.activity`). */
  report(): void;
  /** The page saw no input for the idle time, or the reviewer pressed the lock key. */
  lockNow(reason: 'idle' | 'key'): void;
  now?: () => number;
}

/** `Ctrl+Shift+L` as a set of modifiers and a key, so that their order does not matter. */
function parseKey(key: string): { mods: Set<string>; key: string } {
  const parts = key.split('+');
  return { key: parts.at(-1) ?? '', mods: new Set(parts.slice(0, -1)) };
}

/** The key a keydown names in the lock key's terms: `KeyL` → `L`, `Digit5` → `5`, `F5` → `F5`. */
function keyOf(event: KeyboardEvent): string {
  return event.code.replace(/^Key|^Digit/, '');
}

export function isLockKey(event: KeyboardEvent, lockKey: string | null): boolean {
  if (!lockKey) return false;
  const wanted = parseKey(lockKey);
  const held = new Set(
    (
      [
        ['Ctrl', event.ctrlKey],
        ['Alt', event.altKey],
        ['Shift', event.shiftKey],
        ['Meta', event.metaKey],
      ] as const
    )
      .filter(([, down]) => down)
      .map(([name]) => name),
  );
  return (
    keyOf(event) === wanted.key &&
    held.size === wanted.mods.size &&
    [...held].every((m) => wanted.mods.has(m))
  );
}

/**
 * Follows the reviewer's input while the desk is open: reports it to main (throttled), locks on the lock key,
 * and locks once the idle time passes without input (main has its own timer too; the page's is prompt, and a
 * test can move the page's clock). Returns what stops following.
 */
export function followActivity(options: ActivityOptions): () => void {
  const now = options.now ?? Date.now;
  let lastInput = now();
  let lastReport = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const idleMs = () => (options.lock()?.idleMinutes ?? 15) * 60_000;
  const schedule = () => {
    clearTimeout(timer);
    // Past the idle time already (unarmed, or main has not locked yet): look again a whole idle time later.
    const left = lastInput + idleMs() - now();
    timer = setTimeout(check, left > 0 ? left : idleMs());
  };
  const check = () => {
    const lock = options.lock();
    if (lock?.armed && !lock.locked && now() - lastInput >= idleMs()) options.lockNow('idle');
    else schedule();
  };
  const onInput = (event: Event) => {
    if (event.type === 'keydown' && isLockKey(event as KeyboardEvent, options.lock()?.key ?? null)) {
      event.preventDefault();
      options.lockNow('key');
      return;
    }
    lastInput = now();
    if (lastInput - lastReport >= REPORT_EVERY_MS) {
      lastReport = lastInput;
      options.report();
    }
  };

  for (const type of INPUT_EVENTS) {
    options.target.addEventListener(type, onInput, { passive: type !== 'keydown' });
  }
  schedule();
  return () => {
    clearTimeout(timer);
    for (const type of INPUT_EVENTS) options.target.removeEventListener(type, onInput);
  };
}
