import { useEffect, useRef } from 'react';

/** A keyboard shortcut of a screen; the same list drives the key handling and the help overlay. */
export interface Shortcut {
  /** `KeyboardEvent.key` values, e.g. `['j', 'ArrowDown']`. */
  keys: string[];
  /** What it does, for the help overlay. */
  label: string;
  run(event: KeyboardEvent): void;
  /** Also when a button or link has focus (by default Enter and Space stay theirs). */
  overControls?: boolean;
}

const KEY_NAMES: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  Escape: 'Esc',
  Enter: 'Enter',
};
export const keyName = (key: string) => KEY_NAMES[key] ?? key;

/** Every shortcut list on screen now (a screen and the panels inside it each register theirs). */
const active = new Set<{ current: Shortcut[] }>();

/** The shortcuts of everything on screen, `first` leading, each label once: what `?` lists. */
export function shortcutsOnScreen(
  first: Pick<Shortcut, 'keys' | 'label'>[] = [],
): Pick<Shortcut, 'keys' | 'label'>[] {
  const seen = new Set<string>();
  return [...first, ...[...active].flatMap((list) => list.current)].filter((shortcut) => {
    if (seen.has(shortcut.label)) return false;
    seen.add(shortcut.label);
    return true;
  });
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.matches('input, textarea, select');
}

function isControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.matches('button, a[href], summary');
}

/**
 * Screen-wide shortcuts. They stay out of the way while the reviewer types in a field, while a
 * dialog is open (it has its own keys, Esc above all), and when a modifier is held (the
 * browser's and the system's shortcuts).
 */
export function useShortcuts(shortcuts: Shortcut[]): void {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  useEffect(() => {
    active.add(latest);
    return () => {
      active.delete(latest);
    };
  }, []);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (event.target instanceof Element && event.target.closest('dialog')) return;
      const shortcut = latest.current.find((candidate) => candidate.keys.includes(event.key));
      if (!shortcut) return;
      if (isControl(event.target) && !shortcut.overControls && (event.key === 'Enter' || event.key === ' ')) {
        return;
      }
      event.preventDefault();
      shortcut.run(event);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
