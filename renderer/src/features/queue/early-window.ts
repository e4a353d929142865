import type { QueueWindow, QueueWindowInput } from '#contract/queue.ts';

/**
 * The queue's first page, asked for while the page boots, alongside `vault.status`, instead of after the
 * vault gate has answered and the queue has mounted: one round trip and a render less before rows paint.
 * The answer is only ever read through `take`, by the queue once it is on screen (so behind the gate); a
 * refusal (a locked vault refuses every channel but its own) or a different query just means asking again.
 */
export interface EarlyWindow {
  start(input: QueueWindowInput): void;
  /** The early answer for exactly this input, once; null when there is none to use. Drops it either way. */
  take(input: QueueWindowInput): Promise<QueueWindow | null> | null;
}

export function earlyWindow(ask: (input: QueueWindowInput) => Promise<QueueWindow>): EarlyWindow {
  let held: { key: string; answer: Promise<QueueWindow | null> } | null = null;
  return {
    start(input) {
      held = { key: JSON.stringify(input), answer: ask(input).catch(() => null) };
    },
    take(input) {
      const early = held;
      held = null;
      return early && early.key === JSON.stringify(input) ? early.answer : null;
    },
  };
}
