import { UserRound, UserRoundCheck } from 'lucide-react';
import { Tag } from '#renderer/ui/Tag.tsx';
import { holderWords } from './claim-words.ts';
import { useTeamMeStore } from './team-me-store.ts';

/** A queue row's holder in words ("alice has this", "You have this"), its icon telling mine from theirs. */
export function ClaimTag({ holder }: { holder: string }) {
  const me = useTeamMeStore((state) => state.me?.reviewer);
  const mine = holder === me;
  return (
    <Tag tone={mine ? 'info' : 'neutral'} icon={mine ? UserRoundCheck : UserRound}>
      {holderWords(holder, me)}
    </Tag>
  );
}
