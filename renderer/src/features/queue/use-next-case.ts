import { useClaimsStore } from '#renderer/shared/team/claims-store.ts';
import { useClaimsShown } from '#renderer/shared/team/team-me-store.ts';
import type { Shortcut } from '#renderer/ui/shortcuts.ts';

/** The key that takes the next unclaimed case (by waiting time) and opens it. */
export const NEXT_CASE_KEY = 'g';

export interface NextCase {
  /** Whether cases are claimed on this desk: the button and the key exist only then. */
  shown: boolean;
  run(): void;
  shortcut: Shortcut | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Takes the unclaimed case that has waited longest and opens it; says so, or that none waits. */
export function useNextCase(open: (customerId: string) => void, say: (text: string) => void): NextCase {
  const shown = useClaimsShown();
  const run = () => {
    useClaimsStore
      .getState()
      .next()
      .then((claim) => {
        if (!claim) return say('No unclaimed case is waiting.');
        open(claim.customerId);
        say('You have the next unclaimed case.');
      })
      .catch((error: unknown) => say(messageOf(error)));
  };
  return {
    shown,
    run,
    shortcut: shown
      ? { keys: [NEXT_CASE_KEY], label: 'Take the next unclaimed case and open it', run }
      : null,
  };
}
