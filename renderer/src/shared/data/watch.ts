import { useEffect } from 'react';

/** Stops what a `start` began. */
export type Stop = () => void;

/**
 * Listens to main's pushed events only while something on screen needs them: the first watcher
 * starts the listeners, the last one to leave stops them. Nothing listens at import time, so a store
 * can be loaded (and tested) without a bridge, and a screen that is gone costs nothing.
 */
export function sharedWatch(start: () => Stop | Stop[]): () => Stop {
  let watchers = 0;
  let stop: Stop[] = [];
  return () => {
    watchers++;
    if (watchers === 1) stop = [start()].flat();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      watchers--;
      if (watchers === 0) for (const each of stop.splice(0)) each();
    };
  };
}

/** Watches a store for as long as the component is on screen. */
export function useWatch(watch: () => Stop): void {
  useEffect(() => watch(), [watch]);
}
