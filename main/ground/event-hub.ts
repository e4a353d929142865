import { type EventName, type EventPayload, pushedEvents } from '#contract/channels.ts';

export type EventListener = (event: EventName, payload: unknown) => void;

/** Pushed events from the desk to whichever host shows the renderer. */
export interface EventHub {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventHub(options: { validate?: boolean } = {}): EventHub {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      if (options.validate) pushedEvents[event].parse(payload);
      for (const listener of listeners) listener(event, payload);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
